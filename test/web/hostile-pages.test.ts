// Hostile pages through the real worker process, beside ordinary pages and a video task in the same process: the
// ordinary work keeps its pace (compared with a run of the same work without hostile pages, in this test), each
// hostile page ends with its own error, and the process stays under its documented memory bound.
import { readFileSync } from 'node:fs';
import { bearer } from '../support/identity.js';
import { type PageServer, startPageServer } from '../support/page-server.js';
import { finalVideo, openVideoWorld, type VideoWorld } from '../support/video-world.js';

/** docs/web.md: a worker process's peak RSS stays under 320 MB + threads × (WEB_EXTRACT_HEAP_MB + 64 MB). */
const THREADS = 2;
const HEAP_MB = 256;
const MEMORY_BOUND_MB = 320 + THREADS * (HEAP_MB + 64);

let w: VideoWorld;
let site: PageServer;
beforeAll(async () => {
  site = await startPageServer();
  w = await openVideoWorld({
    env: {
      WEB_FETCH_CACHE_SECONDS: '0',
      WEB_EXTRACT_THREADS: String(THREADS),
      WEB_EXTRACT_HEAP_MB: String(HEAP_MB),
      // Several fetches of one organization at once: its share of batches in progress is off here.
      WEB_FETCH_BATCHES_PER_ORGANIZATION: '0',
    },
    videoMs: 1_500,
    queues: 'web-fetch,video,video-rehost',
  });
}, 60_000);
afterAll(async () => {
  await w?.close();
  await site?.close();
});

const timed = async <T>(run: () => Promise<T>) => {
  const started = performance.now();
  const value = await run();
  return { value, ms: Math.round(performance.now() - started) };
};

const fetchUrls = (paths: string[]) =>
  w.h.http
    .post('/v1/web/fetch')
    .set(bearer(w.key))
    .send({ urls: paths.map((p) => `${site.origin}${p}`) });

/** A batch of ordinary pages and one video task from create to completed (its polls run in the same worker). */
async function ordinaryWork(tag: string) {
  const batch = timed(async () => {
    const res = await fetchUrls(Array.from({ length: 8 }, (_, i) => `/page/${i + 1}`));
    expect([res.status, res.body.error]).toEqual([200, undefined]);
    expect(res.body.items.map((i: { title: string }) => i.title)).toEqual(
      Array.from({ length: 8 }, (_, i) => `Page ${i + 1}`),
    );
  });
  const video = timed(async () => {
    const created = await w.h.http
      .post('/v1/videos')
      .set(bearer(w.key))
      .send({ model: 'seedance-1-0-pro', prompt: `A lighthouse at dusk ${tag}` });
    expect([created.status, created.body.error]).toEqual([200, undefined]);
    expect((await finalVideo(w, created.body.id)).status).toBe('completed');
  });
  return { batchMs: (await batch).ms, videoMs: (await video).ms };
}

const peakRssMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1]) / 1024);
};

/** One round: the usual time (the slower of two runs alone), then the same work beside three hostile pages. */
async function round(n: number) {
  const runs = [await ordinaryWork(`baseline ${n}a`), await ordinaryWork(`baseline ${n}b`)];
  const baseline = {
    batchMs: Math.max(...runs.map((r) => r.batchMs)),
    videoMs: Math.max(...runs.map((r) => r.videoMs)),
  };
  const hostile = ['/nested/5000', '/nested/20000', '/attributes/300000'].map((path) =>
    timed(async () => {
      const res = await fetchUrls([path, '/page/9']);
      expect(res.status).toBe(200);
      return res.body.items as { title: string; error?: string }[];
    }),
  );
  const loaded = await ordinaryWork(`beside hostile pages ${n}`);
  const answers = await Promise.all(hostile);
  const peak = peakRssMb(w.worker.child.pid as number);
  process.stdout.write(
    `[hostile pages] round ${n}: baseline ${JSON.stringify(baseline)} loaded ${JSON.stringify(loaded)} hostile ms ${answers
      .map((a) => a.ms)
      .join(', ')} worker peak RSS ${peak} MB (bound ${MEMORY_BOUND_MB} MB)\n`,
  );
  // Every round: each hostile page fails alone, with its own error, and the page beside it is read.
  expect(answers.map((a) => a.value[0]?.error)).toEqual([
    'Page too complex to read: more than 256 levels of nested elements.',
    'Page too complex to read: more than 256 levels of nested elements.',
    'Page too complex to read: more than 100000 attributes.',
  ]);
  expect(answers.map((a) => a.value[1]?.title)).toEqual(['Page 9', 'Page 9', 'Page 9']);
  expect(peak).toBeLessThan(MEMORY_BOUND_MB);
  return {
    baseline,
    loaded,
    keptPace: loaded.batchMs <= baseline.batchMs + 1_000 && loaded.videoMs <= baseline.videoMs + 1_000,
  };
}

it('reads hostile pages off the main loop: ordinary pages and video polls keep their pace, each hostile page fails alone', async () => {
  await ordinaryWork('warm-up');
  // Pace is a comparison of times on a machine shared with other work: a round another process slowed is measured
  // again, up to three rounds. A blocked loop (pages read on it took seconds to minutes) fails every round.
  const rounds = [];
  for (let n = 1; n <= 3; n++) {
    const r = await round(n);
    rounds.push(r);
    if (r.keptPace) break;
  }
  const best = rounds.find((r) => r.keptPace) ?? rounds.at(-1);
  expect(best?.loaded.batchMs).toBeLessThanOrEqual((best?.baseline.batchMs ?? 0) + 1_000);
  expect(best?.loaded.videoMs).toBeLessThanOrEqual((best?.baseline.videoMs ?? 0) + 1_000);
}, 300_000);
