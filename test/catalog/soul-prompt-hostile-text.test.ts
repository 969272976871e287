// A published soul whose SOUL.md holds a long run of whitespace inside its text, read as prompt.txt from the real API
// process. Regression of security review #90: the trailing whitespace was cut with /\s+$/, which retries from every
// character of a run that text follows, quadratic in the run: a 100,000-character SOUL.md (the draft limit) held the
// API's main loop for about 18 s at every read that missed the read cache, and anyone, with no account, could read it.
import { type Actors, createActors, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess } from '../support/harness.js';
import { freePort } from '../support/loopback-ports.js';

let h: Harness;
let a: Actors;
let api: WorkerProcess;
let port: number;

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
  port = await freePort();
  api = await startProcess(h.env, {
    script: 'api/server.ts',
    readyLine: /API listening/,
    extraEnv: { PORT: String(port) },
  });
}, 60_000);
afterAll(async () => {
  await api?.stop();
  await h?.close();
});

const run = (length: number) => Array.from({ length }, (_, i) => [' ', '\t', '\n'][i % 3]).join('');

it('answers prompt.txt of a SOUL.md with a 99,980-character run of whitespace inside at once', async () => {
  const soulMd = `Be calm.${run(99_980)}Be brief.${run(2)}`;
  expect(soulMd.length).toBeLessThanOrEqual(100_000);
  const soul = await publishItem(h, a, 'soul', { name: 'Hollow', summary: 'Spacious.', version: { soulMd } });
  // The linear reading answers in milliseconds; the quadratic one took about 18 s of the API's main loop, past the
  // deadline.
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/soul/${soul.slug}/prompt.txt`, {
    signal: AbortSignal.timeout(8_000),
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe(`# Hollow\n\nSpacious.\n\nBe calm.${run(99_980)}Be brief.\n`);
}, 60_000);
