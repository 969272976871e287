// Web fetch throughput: 20-URL batches through the API (auth, charge, enqueue, wait) and one web-fetch worker
// process (fetch, decode, Readability extraction) against a loopback site of ~20 KB articles, cache off.
// Prints pages/s for batches sent one at a time and 4 at a time. Usage: tsx scripts/bench/web-fetch.ts [batches]
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { inheritedEnv } from '../../shared/config/index.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createApiKey } from '../../shared/identity/api-keys.js';
import { createOrganization } from '../../shared/organizations/organizations.js';
import { createProject } from '../../shared/organizations/projects.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { benchArgs } from './bench-args.js';
import { openBenchContext, percentile } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [batches] = benchArgs(import.meta.url, [['batches', 20]]);
const BATCH = 20;

const paragraph = (n: number, p: number) =>
  `<p>Page ${n}, paragraph ${p}: ${'the keeper wrote down the ships, the weather and the state of the lamp. '.repeat(4)}</p>`;
const site = http.createServer((req, res) => {
  const n = Number((req.url ?? '').split('/').pop());
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html><head><title>Page ${n}</title></head><body><nav>Home | Shop | Sign in</nav>` +
      `<article><h1>Page ${n}</h1>${Array.from({ length: 60 }, (_, p) => paragraph(n, p)).join('')}</article>` +
      '<footer>Copyright</footer></body></html>',
  );
});
await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

// One organization's key drives every fetch: its share of batches in progress is off.
const overrides = {
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  WEB_FETCH_CACHE_SECONDS: '0',
  WEB_FETCH_BATCHES_PER_ORGANIZATION: '0',
};
const bench = await openBenchContext('webfetch', overrides);
const { ctx } = bench;
const worker = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], {
  env: inheritedEnv({
    ...overrides,
    NODE_OPTIONS: '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: ctx.config.DATABASE_URL,
    REDIS_URL: ctx.config.REDIS_URL,
    REDIS_PREFIX: ctx.config.REDIS_PREFIX,
    WORKER_QUEUES: 'web-fetch',
  }),
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((resolve, reject) => {
  worker.stdout?.on('data', (chunk: Buffer) => /worker ready/.test(chunk.toString()) && resolve());
  worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
});
const server = bench.app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const account = await createAccount(ctx, { email: 'bench@bench.local', name: 'Bench', password: 'bench-password-1' });
const org = await createOrganization(ctx, account.id, { name: 'Bench org' });
const project = await createProject(ctx, org.id, account.id, { name: 'Bench project' });
await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'bench' });
const { token } = await createApiKey(ctx, account.id, { name: 'bench', projectId: project.id });

let counter = 0;
async function batch(): Promise<number> {
  const urls = Array.from({ length: BATCH }, () => `${origin}/page/${counter++}`);
  const started = performance.now();
  const res = await request(`${api}/v1/web/fetch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ urls }),
  });
  const body = (await res.body.json()) as { items?: { error?: string }[] };
  if (res.statusCode !== 200 || body.items?.some((i) => i.error))
    throw new Error(`batch failed: ${JSON.stringify(body)}`);
  return performance.now() - started;
}

async function run(concurrency: number) {
  const times: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < batches) times.push(await batch());
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const pages = times.length * BATCH;
  rates.set(concurrency, pages / seconds);
  console.log(
    `batches at once ${concurrency}: ${times.length} batches of ${BATCH} URLs, ${(pages / seconds).toFixed(0)} pages/s, ` +
      `batch p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms`,
  );
}

const rates = new Map<number, number>();
try {
  await batch(); // warm-up: connections, JIT, the QueueEvents listener
  await run(1);
  await run(4);
  reportHeadline({
    figure: 'pages/s, 4 batches at once',
    value: rates.get(4) ?? 0,
    baseline: rates.get(1) ?? 0,
    unit: 'pages/s',
    baselineName: 'one batch at a time',
  });
} finally {
  await new Promise((r) => server.close(r));
  worker.kill('SIGTERM');
  await new Promise((r) => worker.once('exit', r));
  await bench.close();
  site.close();
}
