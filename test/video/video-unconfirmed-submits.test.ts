// A video provider that creates the task but whose answer never confirms it (a 5xx, a cut connection). Regression of
// a review finding: the worker submitted again at every poll until the task's deadline, one paid upstream generation
// each (a few per second in this test, about one per 34 s with the 30 s submit time limit and the production
// deadline of 30 min), while the caller paid nothing for the failed task.
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from '../support/video-world.js';

const TASKS = '/api/v3/contents/generations/tasks';

let provider: LoopbackServer;
let w: VideoWorld;
let answer: 'server-error' | 'cut' | 'unavailable' = 'server-error';
beforeAll(async () => {
  provider = await startLoopbackServer((req, res) => {
    if (req.method !== 'POST') return res.writeHead(404).end();
    // The task is created upstream (a generation the operator pays for) before the answer goes wrong.
    if (answer === 'cut') return res.socket?.destroy();
    const status = answer === 'unavailable' ? 503 : 500;
    res.writeHead(status, { 'content-type': 'application/json' }).end('{"error":{"message":"internal error"}}');
  });
  w = await openVideoWorld({ env: { UPSTREAM_VIDEO_URL: provider.origin, VIDEO_TASK_DEADLINE_MS: '6000' } });
}, 60_000);
afterAll(async () => {
  await w?.close();
  await provider?.close();
});

const submitsOf = (prompt: string) =>
  provider.requests.filter((r) => r.method === 'POST' && r.url === TASKS && r.body.includes(prompt)).length;

async function createTask(prompt: string) {
  const created = await w.h.http
    .post('/v1/videos')
    .set('authorization', `Bearer ${w.key}`)
    .send({ model: 'seedance-1-0-pro', prompt });
  expect(created.status).toBe(200);
  return created.body.id as string;
}

it.each([
  ['answers 500 after creating it', 'server-error' as const],
  ['cuts the connection after reading the request', 'cut' as const],
])('submits at most 3 times to a provider that %s, then fails the task without charge', async (_name, kind) => {
  answer = kind;
  const before = await settledWallet(w, w.org);
  const prompt = `A quiet harbour at dawn (${kind})`;
  const done = await finalVideo(w, await createTask(prompt));
  expect(done).toMatchObject({
    status: 'failed',
    error: {
      type: 'server_error',
      message: 'The video provider did not confirm the task after 3 submissions; try again later.',
    },
  });
  expect(submitsOf(prompt)).toBe(3);
  expect(await settledWallet(w, w.org)).toEqual(before);
});

it('keeps submitting while the provider says it is unavailable (503: nothing was created) until the deadline', async () => {
  answer = 'unavailable';
  const prompt = 'A quiet harbour at dawn (unavailable)';
  const done = await finalVideo(w, await createTask(prompt));
  expect(done).toMatchObject({
    status: 'failed',
    error: { type: 'server_error', message: 'The video task did not finish before its deadline.' },
  });
  process.stdout.write(`[unconfirmed submits] ${submitsOf(prompt)} submits in a 6 s deadline\n`);
  expect(submitsOf(prompt)).toBeGreaterThan(3);
});
