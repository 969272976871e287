// The worker's main loop seen from outside (workers/loop-watchdog.ts): a blocked loop is killed within
// WORKER_LOOP_STALL_EXIT_MS and its job finished by another worker; SIGTERM during a long page read exits by the
// shutdown deadline.
import type { ChildProcess } from 'node:child_process';
import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { startProcess, waitUntil } from '../support/harness.js';
import { type HoldingServer, startHoldingServer } from '../support/held-requests.js';
import { articleHtml, nestedDivs } from '../support/hostile-html.js';
import { bearer } from '../support/identity.js';

const STALL_MS = 2_000;
const SHUTDOWN_MS = 2_000;
// No upper bound on when a kill comes: a busy machine delays the watchdog's look and the exit's report by seconds. The
// log line each ending writes says which limit ended the process; a hang ends at the test's limit.
// A worker that is not the one under test (a rescuer) keeps the default stall limit: a CPU-starved main thread would
// pass 2 s and be killed, and the job it was to finish with it.
const rescuerEnv = { WORKER_QUEUES: 'web-fetch', WORKER_LOOP_STALL_EXIT_MS: '30000' };

let w: GatewayWorld;
let site: HoldingServer;
beforeAll(async () => {
  site = await startHoldingServer(
    (req, res) => {
      const html = req.url?.startsWith('/deep') ? nestedDivs(1_500) : articleHtml('Kept Going');
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    },
    (req) => req.url === '/held',
  );
  w = await openGatewayWorld({
    balance: '10',
    env: {
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      // A read held on purpose stays held until the test blocks or stops its worker, however long the rescuer takes to
      // start: with the 10 s default, a rescuer starting on a busy machine let the held read time out first, and the
      // worker meant to be killed finished the batch with that error (seen with six busy cores' worth of load).
      WEB_FETCH_PAGE_TIMEOUT_MS: '120000',
      WEB_FETCH_CACHE_SECONDS: '0',
      WORKER_LOCK_MS: '2000',
      WORKER_LOOP_STALL_EXIT_MS: String(STALL_MS),
      WORKER_SHUTDOWN_MS: String(SHUTDOWN_MS),
    },
  });
}, 60_000);
afterAll(async () => {
  await w?.close();
  await site?.close();
});

/** Resolves with how the child ended and when, measured from `since`. */
const ending = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() })),
  );

it('kills a worker whose main loop is blocked within WORKER_LOOP_STALL_EXIT_MS; another worker finishes its job', async () => {
  const blocked = await startProcess(w.h.env, {
    script: 'test/workers/blockable-worker.ts',
    extraEnv: { WORKER_QUEUES: 'web-fetch' },
  });
  const exit = ending(blocked.child);
  const answer = w.h.http
    .post('/v1/web/fetch')
    .set(bearer(w.key))
    .send({ urls: [`${site.origin}/held`] });
  const sent = answer.then((res) => res);
  await waitUntil(async () => site.gate.held === 1);
  // The blocked worker's read stays held; the rescuer may take the job as soon as its lock lapses, even before the
  // kill, so its own read of the page must be answered.
  site.gate.holding = false;
  const rescuer = await startProcess(w.h.env, { extraEnv: rescuerEnv });
  try {
    const blockedAt = performance.now();
    blocked.child.kill('SIGUSR2');
    const ended = await exit;

    expect(ended.signal).toBe('SIGKILL');
    const exitMs = ended.at - blockedAt;
    // The watchdog looks every STALL_MS / 5: the kill comes after the limit less one look, never before.
    expect(exitMs).toBeGreaterThanOrEqual(STALL_MS - STALL_MS / 5);
    expect(blocked.logs.join('')).toContain('main loop stalled');

    const res = await sent;
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toMatchObject({ title: 'Kept Going' });
    expect(rescuer.logs.join('')).toMatch(/"queue":"web-fetch".*"msg":"job done"/);
    process.stdout.write(`[loop watchdog] blocked loop → SIGKILL after ${Math.round(exitMs)} ms (limit ${STALL_MS})\n`);
  } finally {
    await rescuer.stop();
  }
}, 60_000);

it('exits by the shutdown deadline on SIGTERM while a thread is reading a long page; its batch ends elsewhere', async () => {
  const worker = await startProcess(w.h.env, {
    extraEnv: {
      WORKER_QUEUES: 'web-fetch',
      // Let a 1,500-deep page through the pre-scan and give it all the time it wants: it reads for many seconds.
      WEB_EXTRACT_MAX_DEPTH: '4096',
      WEB_EXTRACT_TIMEOUT_MS: '600000',
      LOG_LEVEL: 'debug',
      // The loop is not blocked here (a thread reads the page): a machine busy enough to hold the main thread off the
      // CPU for the 2 s stall limit must not turn the shutdown this test watches into the watchdog's SIGKILL.
      WORKER_LOOP_STALL_EXIT_MS: '30000',
    },
  });
  const exit = ending(worker.child);
  const answer = w.h.http
    .post('/v1/web/fetch')
    .set(bearer(w.key))
    .send({ urls: [`${site.origin}/deep`] })
    .then((res) => res);
  await waitUntil(async () => worker.logs.join('').includes('"msg":"reading a page"'));
  const signalledAt = performance.now();
  worker.child.kill('SIGTERM');
  const ended = await exit;
  const exitMs = ended.at - signalledAt;

  // The loop answered SIGTERM while the thread read (a page read on the loop would have held the signal back until
  // the read was done, and the worker would then have exited 0). The process ends at the shutdown deadline by its own
  // exit 1, or by the watchdog's SIGKILL 250 ms later when a busy machine holds the main thread past that grace (seen
  // with six busy cores' worth of load); both only after the handler ran and set the deadline.
  const logs = worker.logs.join('');
  expect(logs).toContain('worker stopping');
  if (ended.signal === 'SIGKILL') expect(logs).toContain('shutdown deadline passed');
  else {
    expect(ended.code).toBe(1);
    expect(logs).toContain('jobs still in hand at the shutdown deadline');
  }
  expect(exitMs).toBeGreaterThanOrEqual(SHUTDOWN_MS);
  process.stdout.write(
    `[loop watchdog] SIGTERM mid-read → exit ${ended.code ?? ended.signal} after ${Math.round(exitMs)} ms (deadline ${SHUTDOWN_MS})\n`,
  );

  // The batch goes to the next worker once its lock expires; with the default limits the pre-scan refuses the page.
  const rescuer = await startProcess(w.h.env, { extraEnv: rescuerEnv });
  try {
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.items[0].error).toBe('Page too complex to read: more than 256 levels of nested elements.');
  } finally {
    await rescuer.stop();
  }
}, 60_000);

it('kills a stopping worker whose loop blocks before its jobs finish, at the shutdown deadline', async () => {
  site.gate.holding = true;
  const worker = await startProcess(w.h.env, {
    script: 'test/workers/blockable-worker.ts',
    // A stall limit far away: the kill must come from the shutdown deadline.
    extraEnv: { WORKER_QUEUES: 'web-fetch', WORKER_LOOP_STALL_EXIT_MS: '30000' },
  });
  const exit = ending(worker.child);
  const heldBefore = site.gate.held;
  const answer = w.h.http
    .post('/v1/web/fetch')
    .set(bearer(w.key))
    .send({ urls: [`${site.origin}/held`] })
    .then((res) => res);
  await waitUntil(async () => site.gate.held === heldBefore + 1);
  site.gate.holding = false;
  const signalledAt = performance.now();
  worker.child.kill('SIGTERM');
  await waitUntil(async () => worker.logs.join('').includes('worker stopping'), 10_000, 20);
  worker.child.kill('SIGUSR2');
  const ended = await exit;
  const exitMs = ended.at - signalledAt;

  expect(ended.signal).toBe('SIGKILL');
  expect(exitMs).toBeGreaterThanOrEqual(SHUTDOWN_MS);
  expect(worker.logs.join('')).toContain('shutdown deadline passed');
  process.stdout.write(`[loop watchdog] SIGTERM, then a blocked loop → SIGKILL after ${Math.round(exitMs)} ms\n`);

  const rescuer = await startProcess(w.h.env, { extraEnv: rescuerEnv });
  try {
    expect((await answer).body.items[0]).toMatchObject({ title: 'Kept Going' });
  } finally {
    await rescuer.stop();
  }
}, 60_000);
