// web-fetch: the worker is SIGKILLed while the page it fetches holds its answer; the API keeps waiting, the
// replacement worker fetches the batch again, and the request is answered and billed once.
import { eq } from 'drizzle-orm';
import { requestLogs } from '../../../shared/db/schema/index.js';
import { reconcileWallets } from '../../../shared/wallet/reconciliation.js';
import { consumeRecords, type GatewayWorld, openGatewayWorld, walletOf } from '../../support/gateway.js';
import type { WorkerProcess } from '../../support/harness.js';
import { type HoldingServer, startHoldingServer } from '../../support/held-requests.js';
import { bearer } from '../../support/identity.js';
import { ARTICLE_HTML } from '../../support/page-server.js';
import { recordFigures, secondsBetween } from '../support/figures.js';
import { FAST_STALL_RECOVERY, killMidJob, startQueueWorker } from '../support/worker-kill.js';

let w: GatewayWorld;
let site: HoldingServer;
let worker: WorkerProcess;

beforeAll(async () => {
  site = await startHoldingServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE_HTML);
  });
  w = await openGatewayWorld({
    balance: '1',
    env: { ...FAST_STALL_RECOVERY, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', WEB_FETCH_CACHE_SECONDS: '0' },
  });
  worker = await startQueueWorker(w.h.env, 'web-fetch');
});
afterAll(async () => {
  await worker?.stop();
  await w?.close();
  await site?.close();
});

it('answers a fetch whose worker was SIGKILLed mid-batch once, billed once', async () => {
  const answer = w.h.http
    .post('/v1/web/fetch')
    .set(bearer(w.key))
    .send({ urls: [`${site.origin}/article`] })
    .then((res) => res);
  const queue = w.h.ctx.queues.queue('web-fetch');
  const killed = await killMidJob(w.h, worker, 'web-fetch', {
    midJob: async () => site.gate.held === 1 && (await queue.getActiveCount()) === 1,
    release: () => {
      site.gate.holding = false;
    },
  });
  worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');

  const res = await answer;
  const answeredAt = Date.now();
  expect(res.status).toBe(200);
  expect(res.body.items).toEqual([expect.objectContaining({ title: 'The Lighthouse Logbooks' })]);
  expect(site.requests).toHaveLength(2);

  const records = await consumeRecords(w.h, w.org);
  expect(records.map((r) => r.amount)).toEqual([0.001]);
  expect(await walletOf(w.h, w.org)).toMatchObject({ balance: 0.999, frozenAmount: 0 });
  const logs = await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.projectId, w.projectId));
  expect(logs.map((l) => [l.operation, l.status])).toEqual([['web_fetch', 'succeeded']]);
  expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);

  recordFigures('SIGKILL mid-job: web-fetch', {
    jobsAtRisk: killed.inFlight,
    jobsLost: res.status === 200 ? 0 : 1,
    doubleEffects: Math.max(0, records.length - 1),
    requeueSeconds: secondsBetween(killed.killedAt, answeredAt),
  });
});
