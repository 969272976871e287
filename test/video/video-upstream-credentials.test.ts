// A video provider refusing the gateway's own credentials fails the task with a fixed message and charges nothing:
// the provider's text can echo the operator's key, so only the worker's log keeps it (security review, as for
// /v1/messages in test/gateway/upstream-error-disclosure.test.ts).
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from '../support/video-world.js';

let w: VideoWorld;
beforeAll(async () => {
  w = await openVideoWorld({ env: { UPSTREAM_VIDEO_KEY: 'sk-wrong-OPERATORSECRET' } });
});
afterAll(() => w.close());

it('fails the task with the gateway-side message, without the provider’s text, and releases the reservation', async () => {
  const before = await settledWallet(w, w.org);
  const created = await w.h.http
    .post('/v1/videos')
    .set('authorization', `Bearer ${w.key}`)
    .send({ model: 'seedance-1-0-pro', prompt: 'A quiet harbour at dawn' });
  expect(created.status).toBe(200);
  const done = await finalVideo(w, created.body.id);
  expect(done).toMatchObject({
    status: 'failed',
    error: { type: 'server_error', message: 'The video provider refused the gateway’s credentials; try again later.' },
  });
  expect(JSON.stringify(done)).not.toContain('OPERATORSECRET');
  expect(await settledWallet(w, w.org)).toEqual(before);
});
