// A rehosted video plays from /files in a real browser (headless Chromium): every read is a byte range the API answers
// 206, the frames past a 32 MiB gap are fetched by a range that skips it, and a seek lands (docs/video.md, "Rehosting
// and storage").
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import { Readable } from 'node:stream';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../../scripts/services.js';
import { createHarness, type Harness } from '../support/harness.js';
import { listeningServer } from '../support/loopback-ports.js';

const sample = readFileSync(new URL('../../scripts/simulated-provider/assets/sample.mp4', import.meta.url));

type Box = { type: string; start: number; end: number };

/** The boxes of an MP4 between `start` and `end` (32-bit sizes: all the sample has). */
function boxes(mp4: Buffer, start = 0, end = mp4.length): Box[] {
  const found: Box[] = [];
  for (let at = start; at < end; at += mp4.readUInt32BE(at)) {
    found.push({ type: mp4.toString('latin1', at + 4, at + 8), start: at, end: at + mp4.readUInt32BE(at) });
  }
  return found;
}

const box = (type: string, body: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const uint32s = (...values: number[]) => {
  const out = Buffer.alloc(4 * values.length);
  for (const [i, v] of values.entries()) out.writeUInt32BE(v, 4 * i);
  return out;
};

/**
 * The sample (one second, ftyp + moov + one mdat chunk of all its frames) with `gap` bytes between the first half of
 * its frames and the second: two chunks, so that a player that loaded the start must ask for the bytes after the gap
 * to show the end, with a Range. Rewrites the sample table's chunk map (stsc) and offsets (stco) to match.
 */
function withGap(mp4: Buffer, gap: number): Buffer {
  const [ftyp, moov] = boxes(mp4) as [Box, Box];
  const path = ['trak', 'mdia', 'minf', 'stbl'];
  let stbl = moov;
  for (const type of path) stbl = boxes(mp4, stbl.start + 8, stbl.end).find((b) => b.type === type) as Box;
  const table = (type: string) => boxes(mp4, stbl.start + 8, stbl.end).find((b) => b.type === type) as Box;
  const count = mp4.readUInt32BE(table('stsz').start + 16);
  const sizes = Array.from({ length: count }, (_, i) => mp4.readUInt32BE(table('stsz').start + 20 + 4 * i));
  const firstCount = Math.floor(count / 2);
  const firstBytes = sizes.slice(0, firstCount).reduce((a, b) => a + b, 0);
  // The sample's one chunk: every frame, one after another.
  const chunkAt = mp4.readUInt32BE(table('stco').start + 16);
  const frames = mp4.subarray(chunkAt, chunkAt + sizes.reduce((a, b) => a + b, 0));

  // Every container on the path to stbl is rebuilt around its new child; stsc and stco are written anew.
  const rebuild = (container: Box, depth: number, offsets: [number, number]): Buffer => {
    const children = boxes(mp4, container.start + 8, container.end).map((child) => {
      if (child.type === path[depth]) return rebuild(child, depth + 1, offsets);
      const version = uint32s(0);
      if (child.type === 'stsc')
        return box('stsc', Buffer.concat([version, uint32s(2, 1, firstCount, 1, 2, count - firstCount, 1)]));
      if (child.type === 'stco') return box('stco', Buffer.concat([version, uint32s(2, ...offsets)]));
      return mp4.subarray(child.start, child.end);
    });
    return box(container.type, Buffer.concat(children));
  };
  const moovLength = rebuild(moov, 0, [0, 0]).length;
  const framesAt = ftyp.end + moovLength + 8;
  const newMoov = rebuild(moov, 0, [framesAt, framesAt + firstBytes + gap]);
  const newMdat = box(
    'mdat',
    Buffer.concat([frames.subarray(0, firstBytes), Buffer.alloc(gap), frames.subarray(firstBytes)]),
  );
  return Buffer.concat([mp4.subarray(0, ftyp.end), newMoov, newMdat]);
}

/** What the test reads of the page's <video> (the test code has no DOM types). */
type Media = {
  readyState: number;
  duration: number;
  videoWidth: number;
  videoHeight: number;
  currentTime: number;
  addEventListener(type: string, listener: (event: unknown) => void, options: { once: boolean }): void;
};

let h: Harness;
let api: { server: http.Server; origin: string };
let browser: Browser;
beforeAll(async () => {
  h = await createHarness();
  api = await listeningServer();
  api.server.on('request', h.app);
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser.close();
  await new Promise((resolve) => api.server.close(resolve));
  await h.close();
});

it('plays a video from /files in Chromium: its metadata loads from 206 answers, the bytes past a gap come by range, and a seek lands', async () => {
  const gap = 32 * 1024 * 1024;
  const video = withGap(sample, gap);
  await h.ctx.storage.put('videos/playback/gap.mp4', Readable.from([video]), { contentType: 'video/mp4' });
  const answered: { range: string | undefined; status: number; contentRange: string | undefined }[] = [];
  api.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (!req.url?.startsWith('/files/videos/playback/')) return;
    // 'close', not 'finish': the browser leaves its first request once it has what it needs.
    res.on('close', () =>
      answered.push({
        range: req.headers.range,
        status: res.statusCode,
        contentRange: res.getHeader('content-range') as string | undefined,
      }),
    );
  });

  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  // The page comes from the browser's own route handler (the API serves no such page, and a page of the API carries
  // a policy without media-src); the video comes from the API.
  await page.route(`${api.origin}/playback`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<video preload="metadata" muted src="/files/videos/playback/gap.mp4"></video>',
    }),
  );
  await page.goto(`${api.origin}/playback`);
  const player = page.locator('video');
  const metadata = await player.evaluate(async (v: Media) => {
    if (v.readyState < 1) await new Promise((resolve) => v.addEventListener('loadedmetadata', resolve, { once: true }));
    return { duration: v.duration, width: v.videoWidth, height: v.videoHeight };
  });
  expect(metadata).toEqual({ duration: expect.closeTo(1, 1), width: 64, height: 64 });

  const seeked = await player.evaluate(async (v: Media) => {
    const done = new Promise((resolve) => v.addEventListener('seeked', resolve, { once: true }));
    v.currentTime = 0.9;
    await done;
    if (v.readyState < 2) await new Promise((resolve) => v.addEventListener('loadeddata', resolve, { once: true }));
    return { currentTime: v.currentTime, readyState: v.readyState };
  });
  // Without ranges Chromium takes the video as not seekable: the seek ended at 0.
  expect(seeked.currentTime).toBeCloseTo(0.9, 1);
  expect(seeked.readyState).toBeGreaterThanOrEqual(2);
  // Every answer was a range: the browser asks for `bytes=0-` and leaves once it has the start, then asks for the
  // bytes past the gap (while loading, before the seek: a one-second video is buffered whole, so the seek finds its
  // frames loaded). With no range support the first answer was a 200 of all 32 MiB, read through the gap.
  expect(answered.map((a) => a.range)).toEqual(expect.arrayContaining(['bytes=0-']));
  expect(answered.filter((a) => a.status !== 206 || !a.contentRange)).toEqual([]);
  const starts = answered.map((a) => Number(/^bytes (\d+)-/.exec(a.contentRange ?? '')?.[1]));
  expect(Math.max(...starts)).toBeGreaterThanOrEqual(gap);
});
