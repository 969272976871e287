// Scaling by process count: real API processes (`api/server.ts`, separate ports, the load split round-robin between
// them) and real worker processes (`workers/main.ts`, every queue) against the simulated provider and a loopback
// site. Configurations: 1 and 2 API processes with 1 worker, then 1, 2 and 4 worker processes with 1 API, then the
// baseline again (its drift is the noise of the run). Each measures paid gateway requests/s (/v1/messages, 32 at
// once), telemetry events/s accepted (counted once the flush reached PostgreSQL), web-fetch pages/s (20-URL
// batches, 4 at once) and video polls on time (tasks created in the bench process, polled by the workers), with the
// CPU of each process kind, Redis commands/s and PostgreSQL transactions/s and connections, and prints ratios
// against the 1 API + 1 worker baseline of the same run. Its parts are in scripts/bench/scaling/.
// Usage: tsx scripts/bench/scaling.ts [seconds=6] [videoTasks=1000]
import { startSimulatedProvider } from '../simulated-provider/server.js';
import { benchArgs } from './bench-args.js';
import { openBenchContext } from './bench-context.js';
import { pollsOnTime, scalingLoads } from './scaling/loads.js';
import { scalingProcesses, stopAll } from './scaling/processes.js';
import { printScalingReport, type ScalingRow } from './scaling/report.js';
import { resourceUsage } from './scaling/resource-usage.js';
import { seedScalingData, startScalingSite } from './scaling/scaling-data.js';

const [seconds, videoTasks] = benchArgs(import.meta.url, [
  ['seconds', 6, 'duration'],
  ['video-tasks', 1000],
]);
// The baseline runs again at the end: how far it moves is the noise of the shared machine during the run.
const configs = [
  { apis: 1, workers: 1 },
  { apis: 2, workers: 1 },
  { apis: 1, workers: 2 },
  { apis: 1, workers: 4 },
  { apis: 1, workers: 1 },
];

const site = await startScalingSite();
const sim = await startSimulatedProvider({
  apiKey: 'bench',
  chunkDelayMs: 0,
  videoDurationMs: 16_000,
  requestLogSize: 1_000_000,
});
const overrides = {
  TRUST_PROXY: 'true',
  OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
  WEB_FETCH_CACHE_SECONDS: '0',
  // One organization's key drives every web fetch: its share of batches in progress is off.
  WEB_FETCH_BATCHES_PER_ORGANIZATION: '0',
  UPSTREAM_MESSAGES_URL: sim.url,
  UPSTREAM_MESSAGES_KEY: 'bench',
  UPSTREAM_VIDEO_URL: sim.url,
  UPSTREAM_VIDEO_KEY: 'bench',
  UPSTREAM_VIDEO_KIND: 'seedance',
  VIDEO_POLL_INTERVAL_MS: '4000',
  STORAGE_LOCAL_DIR: `/tmp/ockhub-bench-scaling-${process.pid}`,
};
const bench = await openBenchContext('scaling', overrides);
const { ctx } = bench;
const data = await seedScalingData(ctx);
const processes = scalingProcesses({ ...bench.env, ...overrides });
const { measure, pgConnections } = resourceUsage(ctx);
const loads = scalingLoads(ctx, data, site.origin, seconds);

const rows: ScalingRow[] = [];
for (const config of configs) {
  const { apis, origins } = await processes.startApis(config.apis);
  const workers = await processes.startWorkers(config.workers);
  const label = `${config.apis} API + ${config.workers} worker${config.workers > 1 ? 's' : ''}`;
  console.log(`▶ ${label}`);
  await loads.warmUp(origins);

  const messages = await measure(apis, workers, loads.messages(origins));
  const telemetry = await measure(apis, workers, await loads.telemetryLoad(origins));
  const webFetch = await measure(apis, workers, loads.webFetch(origins));
  const connections = await pgConnections();

  sim.state.clear();
  const video = await measure(apis, workers, loads.video(videoTasks));
  rows.push({ ...config, messages, telemetry, webFetch, video: { ...pollsOnTime(sim), cpu: video.cpu }, connections });
  await stopAll([...apis, ...workers]);
}
printScalingReport(rows);

await loads.close();
await bench.close();
await sim.close();
site.server.close();
process.exit(0);
