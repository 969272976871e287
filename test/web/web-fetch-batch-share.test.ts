// Web fetch batches of one organization against the web-fetch workers' slots. Regression of a review finding: a
// worker process runs 4 batches at once, and a batch of 20 URLs on a host that never answers holds its slot for
// about 30 s (10 s per page, 8 at a time) for one web price (0.001); the caller's requests that found no slot within
// WEB_FETCH_WAIT_MS are removed and cost nothing. So a paid key kept every slot of a worker busy for about a cent a
// minute, and every other organization's fetches waited, then answered 503.
import { jest } from '@jest/globals';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

jest.setTimeout(120_000);

const SLOTS = 4; // the web-fetch worker's batches at once
const PER_ORGANIZATION = 2;

let w: GatewayWorld;
let worker: WorkerProcess;
/** /never answers nothing (the client gives up after its page time-out); /page answers at once. */
let site: LoopbackServer;
/** One counter for the events of the test, in the order they happened (no clock). */
let order = 0;
/** The first event at which each slow batch's pages were asked for. */
const batchStartedAt: Record<string, number> = {};

beforeAll(async () => {
  site = await startLoopbackServer((req, res) => {
    const batch = /^\/never\/(\d+)\//.exec(req.url ?? '')?.[1];
    if (batch !== undefined) batchStartedAt[`slow${batch}`] ??= order++;
    if (req.url?.startsWith('/page')) res.writeHead(200, { 'content-type': 'text/plain' }).end('a quick page');
  });
  w = await openGatewayWorld({
    balance: '10',
    env: {
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      WEB_FETCH_BATCHES_PER_ORGANIZATION: String(PER_ORGANIZATION),
      // a silent batch then holds its slot about 6 s (three rounds of 8 pages) rather than 30
      WEB_FETCH_PAGE_TIMEOUT_MS: '2000',
    },
  });
  worker = await startProcess(w.h.env, { extraEnv: { WORKER_QUEUES: 'web-fetch' } });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await site?.close();
  await w?.close();
});

const fetchUrls = (key: string, urls: string[]) =>
  w.h.http.post('/v1/web/fetch').set('authorization', `Bearer ${key}`).send({ urls });

it("keeps one organization's slow batches from taking every web-fetch slot: the ones past its share wait their turn", async () => {
  const silent = (n: number) => Array.from({ length: 20 }, (_, i) => `${site.origin}/never/${n}/${i}`);
  const answeredAt: Record<string, number> = {};
  const slow = Array.from({ length: SLOTS }, (_, n) =>
    fetchUrls(w.key, silent(n)).then((res) => {
      answeredAt[`slow${n}`] = order++;
      return res;
    }),
  );
  // The worker is waiting on the silent pages of the batches it took.
  await waitUntil(() => Promise.resolve(site.requests.filter((r) => r.url.startsWith('/never')).length >= 8), 30_000);

  const victim = await aProjectWithKey(w.h, '1');
  const quick = await fetchUrls(victim.key, [`${site.origin}/page`]);
  answeredAt.victim = order++;
  expect(quick.status).toBe(200);
  expect(quick.body.items).toEqual([{ url: `${site.origin}/page`, title: '', content: 'a quick page' }]);

  // Every slow batch is served in the end (its pages failed, each batch billed once), none refused: those past the
  // organization's share waited for a place, and no more than PER_ORGANIZATION of them ever ran at once.
  const slowAnswers = await Promise.all(slow);
  expect(slowAnswers.map((r) => r.status)).toEqual(Array(SLOTS).fill(200));
  const names = Array.from({ length: SLOTS }, (_, n) => `slow${n}`);
  for (const name of names) expect(answeredAt[name]).toBeGreaterThan(answeredAt.victim as number);
  const byStart = [...names].sort((a, b) => (batchStartedAt[a] as number) - (batchStartedAt[b] as number));
  const firstAnswer = Math.min(...names.map((name) => answeredAt[name] as number));
  for (const late of byStart.slice(PER_ORGANIZATION)) {
    expect(batchStartedAt[late]).toBeGreaterThan(firstAnswer);
  }
  for (const early of byStart.slice(0, PER_ORGANIZATION)) expect(batchStartedAt[early]).toBeLessThan(firstAnswer);
});
