// skill-bundle: the worker is SIGKILLed after reviewing a submitted bundle, while it waits to record the verdict
// (the test holds the item's row lock); the replacement reviews it again and the item changes state once.
import { and, eq } from 'drizzle-orm';
import { catalogItems, catalogTransitions } from '../../../shared/db/schema/index.js';
import { type Actors, createActors, createDraft, submit, uploadBundle } from '../../support/catalog-factory.js';
import { createHarness, type Harness, type WorkerProcess, waitUntil } from '../../support/harness.js';
import { buildZip } from '../../support/zip-builders.js';
import { recordFigures, secondsBetween } from '../support/figures.js';
import { holdLocks } from '../support/pg-locks.js';
import { FAST_STALL_RECOVERY, killMidJob, startQueueWorker } from '../support/worker-kill.js';

let h: Harness;
let a: Actors;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  h = await createHarness(FAST_STALL_RECOVERY);
  a = await createActors(h);
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
});

it('moves a bundle whose worker was SIGKILLed mid-review to changes_requested exactly once', async () => {
  const draft = await createDraft(h, a, 'skill');
  const zip = await buildZip({ 'SKILL.md': '---\nname: pdf-tools\ndescription: ""\n---\nbody\n' });
  expect((await uploadBundle(h, a, draft, zip)).status).toBe(200);
  expect((await submit(h, a, 'skill', draft.id)).status).toBe(200);

  const locks = await holdLocks(h.env.DATABASE_URL as string, [
    { text: 'select 1 from catalog_items where id = $1 for update', values: [draft.id] },
  ]);
  const queue = h.ctx.queues.queue('skill-bundle');
  worker = await startQueueWorker(h.env, 'skill-bundle');
  const killed = await killMidJob(h, worker, 'skill-bundle', {
    midJob: async () => (await locks.waitingWorkers('catalog_items')) === 1 && (await queue.getActiveCount()) === 1,
    release: () => locks.release(),
  });
  worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');

  const item = await waitUntil(async () => {
    const [row] = await h.ctx.db.select().from(catalogItems).where(eq(catalogItems.id, draft.id));
    return row?.status === 'changes_requested' ? row : undefined;
  }, 30_000);
  const changedAt = Date.now();
  expect(item.status).toBe('changes_requested');
  const verdicts = await h.ctx.db
    .select()
    .from(catalogTransitions)
    .where(and(eq(catalogTransitions.itemId, draft.id), eq(catalogTransitions.action, 'request_changes')));
  expect(verdicts).toHaveLength(1);
  expect(verdicts[0]?.comment).toMatch(/description/i);
  await waitUntil(async () => (await queue.getCompletedCount()) === 1);
  const [completed] = await queue.getCompleted();
  expect(completed?.stalledCounter).toBe(1);
  expect(completed?.returnvalue).toMatchObject({ outcome: 'changes_requested' });

  recordFigures('SIGKILL mid-job: skill-bundle', {
    jobsAtRisk: killed.inFlight,
    jobsLost: item.status === 'changes_requested' ? 0 : 1,
    doubleEffects: verdicts.length - 1,
    requeueSeconds: secondsBetween(killed.killedAt, changedAt),
  });
});
