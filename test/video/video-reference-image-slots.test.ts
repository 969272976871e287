// Reference image checks of one organization against the video worker's slots. Regression of a review finding: a
// task's image URLs are read in the worker slot of its first step, one after the other, each for up to 30 s, and a
// refused image costs nothing (the reservation is released). A paid key whose image URLs never answer held a slot
// for 30 s per task (up to about 4.5 minutes with a host that serves eight valid images slowly and fails the ninth),
// so VIDEO_WORKER_CONCURRENCY such tasks took every slot of the worker that serves every organization's videos, and
// no other organization's video was submitted or polled until they failed; the next batch did the same.
import { jest } from '@jest/globals';
import { aProjectWithKey } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { finalVideo, openVideoWorld, type VideoWorld } from '../support/video-world.js';

jest.setTimeout(180_000);

const SLOTS = 4;
const PER_ORGANIZATION = 2;

let w: VideoWorld;
/** Answers nothing: each image request stays open until the client gives up. */
let tarpit: LoopbackServer;

beforeAll(async () => {
  tarpit = await startLoopbackServer(() => undefined);
  w = await openVideoWorld({
    env: { VIDEO_WORKER_CONCURRENCY: String(SLOTS), VIDEO_IMAGE_CHECKS_PER_ORGANIZATION: String(PER_ORGANIZATION) },
  });
}, 60_000);
afterAll(async () => {
  await tarpit?.close();
  await w?.close();
});

const statusOf = async (id: string, key: string) =>
  (await w.h.http.get(`/v1/videos/${id}`).set('authorization', `Bearer ${key}`)).body.status as string;

it("keeps one organization's slow reference images from taking every slot of the video worker", async () => {
  const images = Array.from({ length: 9 }, (_, i) => ({
    type: 'image_url',
    image_url: { url: `${tarpit.origin}/never/${i}.png` },
  }));
  const slow = await Promise.all(
    Array.from({ length: SLOTS }, () =>
      w.h.http
        .post('/v1/videos')
        .set('authorization', `Bearer ${w.key}`)
        .send({ model: 'seedance-1-0-pro', prompt: 'A harbour at dawn', content: images }),
    ),
  );
  expect(slow.map((r) => r.status)).toEqual(Array(SLOTS).fill(200));
  // The worker is reading the first images: as many of these tasks as it lets one organization check at once.
  await waitUntil(() => Promise.resolve(tarpit.requests.length >= PER_ORGANIZATION), 30_000);

  const victim = await aProjectWithKey(w.h, '100');
  const created = await w.h.http
    .post('/v1/videos')
    .set('authorization', `Bearer ${victim.key}`)
    .send({ model: 'seedance-1-0-pro', prompt: 'A lighthouse', seconds: 5 });
  expect(created.status).toBe(200);
  const done = await finalVideo(w, created.body.id, victim.key, 90_000);
  expect(done.status).toBe('completed');

  // The other organization's video was served while every slow task still waited on its images.
  const open = await Promise.all(slow.map((r) => statusOf(r.body.id, w.key)));
  expect(open.every((s) => s === 'queued' || s === 'in_progress')).toBe(true);
  // Never more of the organization's tasks reading images at once than its share.
  expect(tarpit.requests.length).toBeLessThanOrEqual(PER_ORGANIZATION);
});
