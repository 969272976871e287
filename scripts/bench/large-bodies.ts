// Memory of the API under many large gateway bodies at once (security review #94): a paid key sends N bodies of 32 MiB
// to /v1/messages at the same moment, first to an API with the default LARGE_BODY_BUDGET_BYTES, then to one with no
// budget (0), each in its own process; prints each one's answers, time and peak RSS (VmHWM), and the ratio.
// Usage: npx tsx scripts/bench/large-bodies.ts [bodies at once, default 24]
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';
import { benchArgs } from './bench-args.js';
import { fundedProjectKey, openBenchContext, spawnService } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [count] = benchArgs(import.meta.url, [['bodies', 24]]);
const upstream = await spawnService('scripts/bench/instant-upstream.ts', {});
const bench = await openBenchContext('bodies', {});
const { token } = await fundedProjectKey(bench.ctx);
const content = 'a'.repeat(32 * 1_048_576 - 200);
const body = Buffer.from(
  JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content }] }),
);

async function peakUnderLoad(budget: string | undefined) {
  const env = { ...bench.env, UPSTREAM_MESSAGES_URL: upstream.url, UPSTREAM_MESSAGES_KEY: 'b', LOG_LEVEL: 'warn' };
  const api = await spawnService('api/server.ts', budget ? { ...env, LARGE_BODY_BUDGET_BYTES: budget } : env, {
    listens: true,
  });
  const peakMb = () =>
    Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${api.child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const before = peakMb();
  const agent = new Agent({ connections: count });
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: count }, async () => {
      const res = await request(`${api.url}/v1/messages`, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', 'x-api-key': token, 'anthropic-version': '2023-06-01' },
        body,
      });
      await res.body.dump();
      return res.statusCode;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const peak = peakMb();
  await agent.close();
  await api.stop();
  const answers: Record<number, number> = {};
  for (const s of statuses) answers[s] = (answers[s] ?? 0) + 1;
  return { answers, seconds, before, peak };
}

try {
  console.log(`${count} bodies of ${body.length} bytes to /v1/messages at once, one paid key`);
  const budgeted = await peakUnderLoad(undefined);
  const unbounded = await peakUnderLoad('0');
  for (const [name, r] of [
    ['default budget', budgeted],
    ['no budget', unbounded],
  ] as const) {
    console.log(
      `  ${name.padEnd(15)} answers ${JSON.stringify(r.answers)} in ${r.seconds.toFixed(1)} s; peak RSS ${r.before.toFixed(0)} -> ${r.peak.toFixed(0)} MB`,
    );
  }
  reportHeadline({
    figure: `peak RSS growth, ${count} large bodies at once, default budget`,
    value: budgeted.peak - budgeted.before,
    baseline: unbounded.peak - unbounded.before,
    unit: 'MB',
    baselineName: 'no budget',
  });
} finally {
  await upstream.stop();
  await bench.close();
}
