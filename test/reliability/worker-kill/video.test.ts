// video: the worker is SIGKILLed while its video-rehost job downloads the finished video from the upstream (the
// last step, right before the task completes and is charged); the replacement worker rehosts and charges once.
import { eq } from 'drizzle-orm';
import { requestLogs, videoTasks } from '../../../shared/db/schema/index.js';
import { reconcileWallets } from '../../../shared/wallet/reconciliation.js';
import { aProjectWithKey, consumeRecords, walletOf } from '../../support/gateway.js';
import { forwardTo, type HoldingServer, startHoldingServer } from '../../support/held-requests.js';
import { bearer } from '../../support/identity.js';
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from '../../support/video-world.js';
import { recordFigures, secondsBetween } from '../support/figures.js';
import { FAST_STALL_RECOVERY, killMidJob } from '../support/worker-kill.js';

let w: VideoWorld;
let upstream: HoldingServer;

beforeAll(async () => {
  // The OpenAI-style upstream serves the video under the task, so the download goes through this proxy.
  upstream = await startHoldingServer(
    forwardTo(() => w.sim.url),
    (req) => req.method === 'GET' && /\/content$/.test(req.url ?? ''),
  );
  w = await openVideoWorld({
    env: { ...FAST_STALL_RECOVERY, UPSTREAM_VIDEO_KIND: 'openai', UPSTREAM_VIDEO_URL: upstream.origin },
  });
});
afterAll(async () => {
  await w?.close();
  await upstream?.close();
});

it('completes a task whose worker was SIGKILLed mid-download, with one upstream task and one charge', async () => {
  const p = await aProjectWithKey(w.h, '10');
  const created = await w.h.http
    .post('/v1/videos')
    .set(bearer(p.key))
    .send({ model: 'sora-2', prompt: 'A lighthouse in a storm', seconds: '4' });
  expect(created.status).toBe(200);
  const queue = w.h.ctx.queues.queue('video-rehost');
  const statusOf = async () =>
    (await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.id, created.body.id)))[0]?.status;
  const killed = await killMidJob(w.h, w.worker, 'video-rehost', {
    // Downloading: the upstream task finished, ours is not completed (nor charged) yet.
    midJob: async () =>
      upstream.gate.held === 1 && (await queue.getActiveCount()) === 1 && (await statusOf()) === 'in_progress',
    release: () => {
      upstream.gate.holding = false;
    },
  });
  w.worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');

  const done = await finalVideo(w, created.body.id, p.key, 60_000);
  const completedAt = Date.now();
  expect(done.status).toBe('completed');
  const wallet = await settledWallet(w, p.org);
  const creates = w.sim.state.requests.filter((r) => r.method === 'POST' && r.path === '/v1/videos');
  expect(creates).toHaveLength(1);
  const downloads = upstream.requests.filter((r) => /\/content$/.test(r.url));
  expect(downloads).toHaveLength(2);

  const records = await consumeRecords(w.h, p.org);
  expect(records).toHaveLength(1);
  expect(wallet.balance + (records[0]?.amount ?? 0)).toBeCloseTo(10, 6);
  const logs = await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.projectId, p.projectId));
  expect(logs.map((l) => [l.operation, l.status])).toEqual([['video', 'succeeded']]);
  expect(await walletOf(w.h, p.org)).toMatchObject({ frozenAmount: 0 });
  expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);

  recordFigures('SIGKILL mid-job: video-rehost', {
    jobsAtRisk: killed.inFlight,
    jobsLost: done.status === 'completed' ? 0 : 1,
    doubleEffects: Math.max(0, records.length - 1) + Math.max(0, creates.length - 1),
    requeueSeconds: secondsBetween(killed.killedAt, completedAt),
  });
});
