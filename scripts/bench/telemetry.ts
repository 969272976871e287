// Telemetry throughput: events/s accepted by one API process (validated and enqueued), then events/s aggregated
// by the telemetry workers until the counters are exact. Usage: npx tsx scripts/bench/telemetry.ts [events] [workers]
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Agent, request } from 'undici';
import { createApp } from '../../api/app.js';
import { createDraft } from '../../shared/catalog/drafts.js';
import { createPublisher } from '../../shared/catalog/publishers.js';
import { decideReview, submitForReview } from '../../shared/catalog/review-workflow.js';
import { inheritedEnv } from '../../shared/config/index.js';
import { catalogItems } from '../../shared/db/schema/index.js';
import { bootstrapAdmin } from '../../shared/identity/accounts.js';
import { openBenchContext } from './bench-context.js';
import { reportHeadline } from './headline.js';

const total = Number(process.argv[2] ?? 20_000);
const workerCount = Number(process.argv[3] ?? 2);
const bench = await openBenchContext('telemetry');
const { ctx } = bench;
const { account } = await bootstrapAdmin(ctx);
const publisher = await createPublisher(ctx.db, account.id, { slug: 'bench', name: 'Bench' });
const draft = await createDraft(ctx, 'agent', account.id, {
  slug: 'bench-agent',
  name: 'Bench agent',
  summary: 'x',
  description: 'x',
  publisherSlug: publisher.slug,
  version: { version: '1.0.0' },
});
await submitForReview(ctx, 'agent', account.id, draft.id);
await decideReview(ctx, 'agent', account.id, draft.id, 'approve');

const server = createApp(ctx).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/telemetry`;
const agent = new Agent({ connections: 64 });
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: 64 }, async () => {
    while (next < total) {
      const i = next++;
      const res = await request(url, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ itemType: 'agent', slug: 'bench-agent', eventType: 'usage', clientId: `c${i % 50}` }),
      });
      await res.body.dump();
    }
  }),
);
const acceptSeconds = (performance.now() - started) / 1000;

const env = inheritedEnv({ ...bench.env, WORKER_QUEUES: 'telemetry', NODE_OPTIONS: '' });
const aggregateStarted = performance.now();
const workers = Array.from({ length: workerCount }, () =>
  spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], { env, stdio: 'ignore' }),
);
for (;;) {
  const [row] = await ctx.db
    .select({ n: catalogItems.usageCount })
    .from(catalogItems)
    .where(eq(catalogItems.id, draft.id));
  if ((row?.n ?? 0) >= total) break;
  await new Promise((r) => setTimeout(r, 100));
}
const aggregateSeconds = (performance.now() - aggregateStarted) / 1000;
for (const w of workers) w.kill('SIGTERM');
await agent.close();
await new Promise((r) => server.close(r));
await bench.close();
console.log(`telemetry, ${total} usage events`);
reportHeadline({
  figure: `events aggregated by ${workerCount} workers`,
  value: total / aggregateSeconds,
  baseline: total / acceptSeconds,
  unit: 'events/s',
  baselineName: 'accepted by one API',
});
console.log(`  accepted by one API process : ${(total / acceptSeconds).toFixed(0)} events/s`);
console.log(
  `  aggregated by ${workerCount} workers     : ${(total / aggregateSeconds).toFixed(0)} events/s (from a full queue, worker start included)`,
);
