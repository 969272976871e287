// telemetry: events are deduplicated and counted in Redis as they arrive; the worker is SIGKILLed mid-flush, while
// the batch of install events is half done (its PostgreSQL rows are being written, not yet counted: the test holds
// the row lock of one of them and of the item). After the replacement's flushes every counter is exact: nothing
// lost, nothing twice.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { catalogItems, mcpToolUsage } from '../../../shared/db/schema/index.js';
import { clientHashOf } from '../../../shared/telemetry/telemetry-ingest.js';
import { telemetryKeys } from '../../../shared/telemetry/telemetry-keys.js';
import { createActors, publishItem } from '../../support/catalog-factory.js';
import { createHarness, type Harness, type WorkerProcess, waitUntil } from '../../support/harness.js';
import { recordFigures, secondsBetween } from '../support/figures.js';
import { holdLocks } from '../support/pg-locks.js';
import { FAST_STALL_RECOVERY, killMidJob, startQueueWorker } from '../support/worker-kill.js';

let h: Harness;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  h = await createHarness(FAST_STALL_RECOVERY);
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
});

const CLIENTS = 30;

async function sendEvents(slug: string) {
  const events = [
    ...Array.from({ length: CLIENTS * 2 }, (_, i) => ({ eventType: 'view', clientId: `viewer-${i % CLIENTS}` })),
    ...Array.from({ length: CLIENTS }, (_, i) => ({ eventType: 'install', clientId: `installer-${i}` })),
    { eventType: 'install', clientId: 'held-installer' },
    ...Array.from({ length: CLIENTS }, () => ({ eventType: 'usage', clientId: 'busy-user', toolName: 'search' })),
  ];
  for (let i = 0; i < events.length; i += 20) {
    const answers = await Promise.all(
      events.slice(i, i + 20).map((e) => h.http.post('/api/v1/telemetry').send({ itemType: 'mcp', slug, ...e })),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  }
  return events.length;
}

const countersOf = async (id: string) => {
  const [row] = await h.ctx.db.select().from(catalogItems).where(eq(catalogItems.id, id));
  const tools = await h.ctx.db.select().from(mcpToolUsage).where(eq(mcpToolUsage.itemId, id));
  return {
    view: row?.viewCount,
    install: row?.installCount,
    usage: row?.usageCount,
    searchTool: tools.find((t) => t.toolName === 'search')?.usageCount,
  };
};

it('keeps every counter exact when the worker is SIGKILLed mid-event and mid-flush', async () => {
  const item = await publishItem(h, await createActors(h), 'mcp');
  const sent = await sendEvents(item.slug);
  // The flush's insert of the install events waits for the held client's row of the same key, and its counter update
  // would wait for the item row.
  const locks = await holdLocks(h.env.DATABASE_URL as string, [
    { text: 'select 1 from catalog_items where id = $1 for no key update', values: [item.id] },
    {
      text: `insert into telemetry_once_events (item_id, event_type, client_hash, event_id) values ($1, 'install', $2, $3)`,
      values: [item.id, clientHashOf('held-installer', item.id), randomUUID()],
    },
  ]);
  worker = await startQueueWorker(h.env, 'telemetry');
  const killed = await killMidJob(h, worker, 'telemetry', {
    midJob: async () => (await locks.waitingWorkers('telemetry_once_events')) >= 1,
    release: () => locks.release(),
  });
  worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');

  const keys = telemetryKeys(h.config.REDIS_PREFIX);
  const expected = { view: CLIENTS, install: CLIENTS + 1, usage: CLIENTS, searchTool: CLIENTS };
  await waitUntil(
    async () =>
      (await h.ctx.redis.exists(keys.pending, keys.flushing)) === 0 && (await h.ctx.redis.xlen(keys.once)) === 0,
    30_000,
    200,
  );
  const drainedAt = Date.now();
  const counted = await countersOf(item.id);
  expect(counted).toEqual(expected);

  const countedEvents = Number(counted.view) + Number(counted.install) + Number(counted.usage);
  const expectedEvents = expected.view + expected.install + expected.usage;
  recordFigures('SIGKILL mid-job: telemetry', {
    jobsAtRisk: killed.inFlight,
    jobsLost: Math.max(0, expectedEvents - countedEvents),
    doubleEffects: Math.max(0, countedEvents - expectedEvents),
    requeueSeconds: secondsBetween(killed.killedAt, drainedAt),
  });
  expect(sent).toBe(CLIENTS * 4 + 1);
});
