import { eq } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { aProjectWithKey, consumeRecords, requestLogsOf, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { finalVideo, openVideoWorld, settledWallet, type VideoWorld } from '../support/video-world.js';

let w: VideoWorld;
beforeAll(async () => {
  w = await openVideoWorld({ videoMs: 3000 });
});
afterAll(() => w.close());

const TASKS = '/api/v3/contents/generations/tasks';

describe('video worker crash', () => {
  it('finishes a task whose worker was SIGKILLed mid-task, after a restart, with one charge', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const created = await w.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .send({ model: 'seedance-1-0-pro', prompt: 'A train through snow kill-case' });
    expect(created.status).toBe(200);
    await waitUntil(async () => {
      const [row] = await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.id, created.body.id));
      return row?.status === 'in_progress' && row.progress > 0;
    }, 60_000);
    expect(await w.worker.stop('SIGKILL')).toBeNull();
    // The upstream finishes while no worker runs; the restarted worker picks the task up from Redis and PostgreSQL.
    await new Promise((r) => setTimeout(r, 3000));
    w.worker = await w.startWorker();

    const done = await finalVideo(w, created.body.id, p.key, 90_000);
    expect(done.status).toBe('completed');
    await settledWallet(w, p.org);
    const creates = w.sim.state.requests.filter(
      (r) => r.method === 'POST' && r.path === TASKS && JSON.stringify(r.body).includes('kill-case'),
    );
    expect(creates).toHaveLength(1);
    expect((await consumeRecords(w.h, p.org)).map((r) => r.amount)).toEqual([0.25]);
    expect(await walletOf(w.h, p.org)).toMatchObject({ balance: 9.75, frozenAmount: 0 });
    const logs = await requestLogsOf(w.h, p.projectId);
    expect(logs.map((l) => [l.operation, l.status])).toEqual([['video', 'succeeded']]);
    expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
  }, 120_000);
});
