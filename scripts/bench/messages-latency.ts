// Added latency of the gateway on /v1/messages: the simulated provider called directly versus through the
// gateway (auth, quota, wallet reservation, relay, settlement), non-streaming and stream time to first byte,
// at concurrency 1 and 16. Prints p50/p99 of each and the gateway's added milliseconds.
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { createApp } from '../../api/app.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createApiKey } from '../../shared/identity/api-keys.js';
import { createOrganization } from '../../shared/organizations/organizations.js';
import { createProject } from '../../shared/organizations/projects.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { startSimulatedProvider } from '../simulated-provider/server.js';
import { openBenchContext, percentile } from './bench-context.js';
import { reportHeadline } from './headline.js';

const requests = Number(process.argv[2] ?? 200);
const sim = await startSimulatedProvider({ apiKey: 'bench', chunkDelayMs: 0 });
const bench = await openBenchContext('messages', {
  UPSTREAM_MESSAGES_URL: sim.url,
  UPSTREAM_MESSAGES_KEY: 'bench',
});
const { ctx } = bench;
const server = createApp(ctx).listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const account = await createAccount(ctx, { email: 'bench@bench.local', name: 'Bench', password: 'bench-password-1' });
const org = await createOrganization(ctx, account.id, { name: 'Bench org' });
const project = await createProject(ctx, org.id, account.id, { name: 'Bench project' });
await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'bench' });
const { token } = await createApiKey(ctx, account.id, { name: 'bench', projectId: project.id });

const body = (stream: boolean) =>
  JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 64, stream, messages: [{ role: 'user', content: 'ping' }] });

async function once(base: string, key: string, stream: boolean): Promise<number> {
  const started = performance.now();
  const res = await request(`${base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    body: body(stream),
  });
  if (res.statusCode !== 200) throw new Error(`${base} answered ${res.statusCode}: ${await res.body.text()}`);
  if (stream) {
    for await (const _chunk of res.body) {
      const ttfb = performance.now() - started;
      await res.body.dump();
      return ttfb;
    }
  }
  await res.body.dump();
  return performance.now() - started;
}

async function run(base: string, key: string, stream: boolean, concurrency: number): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next++;
        times.push(await once(base, key, stream));
      }
    }),
  );
  return times;
}

try {
  console.log(`/v1/messages: simulated provider direct vs through the gateway, ${requests} requests per row`);
  console.log('mode            conc   direct p50/p99 ms   gateway p50/p99 ms   added p50/p99 ms');
  for (const stream of [false, true]) {
    for (const concurrency of [1, 16]) {
      await run(sim.url, 'bench', stream, concurrency); // warm-up
      await run(gateway, token, stream, concurrency);
      const direct = await run(sim.url, 'bench', stream, concurrency);
      const through = await run(gateway, token, stream, concurrency);
      const [d50, d99, g50, g99] = [
        percentile(direct, 50),
        percentile(direct, 99),
        percentile(through, 50),
        percentile(through, 99),
      ];
      console.log(
        `${(stream ? 'stream ttfb' : 'json').padEnd(15)} ${String(concurrency).padStart(4)}   ${d50.toFixed(1).padStart(7)} / ${d99.toFixed(1).padEnd(8)}   ${g50.toFixed(1).padStart(7)} / ${g99.toFixed(1).padEnd(9)}   ${(g50 - d50).toFixed(1).padStart(7)} / ${(g99 - d99).toFixed(1)}`,
      );
      reportHeadline({
        figure: `${stream ? 'stream ttfb' : 'json'} p50, ${concurrency} concurrent`,
        value: g50,
        baseline: d50,
        unit: 'ms',
        baselineName: 'simulator direct',
      });
    }
  }
} finally {
  await new Promise((r) => server.close(r));
  await bench.close();
  await sim.close();
}
