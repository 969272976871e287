// A bounded soak (`npm run soak -- --minutes 10`): a dedicated Redis, the real API and worker processes and the
// simulated provider as child processes, and a few hundred repeating clients sending a realistic mix (catalog
// reads, telemetry, /v1/messages plain and streamed, web fetches, logins, video creates). Every --interval seconds
// it samples each process (RSS, heap, descriptors, event-loop delay), Redis (used_memory, keys by pattern), and
// PostgreSQL (connections, database size), with p50/p99 per route family and errors by status. At the end: each
// resource's slope after warm-up, and exit code 1 when one grows without bound (rule in docs/operations.md).
// Flags: --minutes 10 --interval 30 --warmup <s, default a quarter of the run> --clients 300 --rate 60
//        --concurrency 8 --max-growth 1 (times the level per hour)
// Its parts are in scripts/bench/soak/.
import { join } from 'node:path';
import { request } from 'undici';
import { openBenchContext } from './bench-context.js';
import { clientMix } from './soak/client-mix.js';
import { soakFlags as flags } from './soak/flags.js';
import { judgeGrowth } from './soak/growth.js';
import { soakProcesses } from './soak/processes.js';
import { printKeyPatterns } from './soak/redis-keys.js';
import { soakSampler } from './soak/sampling.js';
import { seedSoakData, startSoakSite } from './soak/soak-data.js';

const processes = soakProcesses(flags.intervalMs);
const { url: redisUrl, redis, server: redisServer } = await processes.startRedis();

const simPort = await processes.freePort();
const simUrl = await processes.start(
  'provider',
  ['scripts/simulated-provider/server.ts'],
  { SIMULATED_PROVIDER_PORT: String(simPort), SIMULATED_PROVIDER_API_KEY: 'soak', SIMULATED_VIDEO_MS: '8000' },
  /listening on (\S+)/,
);
const site = await startSoakSite();

const bench = await openBenchContext('soak', {
  REDIS_URL: redisUrl,
  UPSTREAM_MESSAGES_URL: simUrl,
  UPSTREAM_MESSAGES_KEY: 'soak',
  UPSTREAM_VIDEO_URL: simUrl,
  UPSTREAM_VIDEO_KEY: 'soak',
  UPSTREAM_VIDEO_KIND: 'seedance',
  VIDEO_POLL_INTERVAL_MS: '2000',
  STORAGE_LOCAL_DIR: join(processes.scratch, 'storage'),
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  TRUST_PROXY: 'true',
  // One organization's key drives every web fetch: its share of batches in progress is off.
  WEB_FETCH_BATCHES_PER_ORGANIZATION: '0',
  AUTH_FAILURES_PER_ACCOUNT: '1000000',
  AUTH_FAILURES_PER_ADDRESS: '1000000',
});
const { ctx } = bench;
const data = await seedSoakData(ctx);

const childEnv = { ...bench.env, LOG_LEVEL: 'info' };
const apiPort = await processes.start('api', ['api/server.ts'], { ...childEnv, PORT: '0' }, /"port":(\d+)/);
await processes.start('worker', ['workers/main.ts'], { ...childEnv, WORKER_QUEUES: 'all' }, /worker (ready)/);
const base = `http://127.0.0.1:${apiPort}`;
for (let tries = 0; ; tries++) {
  const res = await request(`${base}/ready`).catch(() => undefined);
  await res?.body.dump();
  if (res?.statusCode === 200) break;
  if (tries > 400) throw new Error('the API was not ready within 20 s');
  await new Promise((r) => setTimeout(r, 50));
}

const mix = clientMix(base, site.origin, data, { clientCount: flags.clientCount, concurrency: flags.concurrency });
const started = Date.now();
const loops = mix.run(started, flags.runMs, flags.rate);
const sampler = soakSampler({
  ctx,
  redis,
  children: processes.children,
  probeFile: processes.probeFile,
  figures: mix.figures,
  started,
});

console.log(
  `soak: ${flags.minutes} min, ${flags.clientCount} clients, ~${flags.rate} requests/s over ${flags.concurrency} connections, sample every ${flags.interval} s, warm-up ${flags.warmupMs / 1000} s`,
);
let exitCode = 0;
try {
  const timer = setInterval(
    () => void sampler.sample().catch((e) => console.error('sample failed:', e)),
    flags.intervalMs,
  );
  await Promise.all(loops);
  clearInterval(timer);
  await sampler.sample();
  const verdicts = judgeGrowth(sampler.series(), {
    warmupSeconds: flags.warmupMs / 1000,
    maxGrowthPerHour: flags.maxGrowth,
  });
  console.log(`\nslopes after warm-up (${flags.warmupMs / 1000} s), least squares, projected over one hour:`);
  for (const v of verdicts) console.log(`  ${v.line}`);
  await printKeyPatterns(redis, sampler.lastPatterns());
  const dead = processes.children.filter((c) => c.proc.exitCode !== null);
  const growing = verdicts.filter((v) => v.grows);
  if (growing.length || dead.length) {
    exitCode = 1;
    for (const v of growing) console.log(`GROWS WITHOUT BOUND: ${v.name}`);
    for (const d of dead) console.log(`PROCESS DIED: ${d.name}`);
  } else console.log('\nsoak: every judged resource flat after warm-up');
} finally {
  await processes.stopChildren();
  await mix.close();
  site.server.close();
  await bench.close();
  redis.disconnect();
  redisServer.kill('SIGTERM');
  processes.removeScratch();
}
process.exit(exitCode);
