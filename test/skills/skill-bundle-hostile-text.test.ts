// A Publisher's bundle whose SKILL.md and requirements.txt hold long runs of whitespace inside one line, through the
// real skill-bundle worker. Regression of a review finding: the heading and requirement patterns backtracked over
// such a run, quadratic in its length, so one 256 KiB SKILL.md line held a review thread (with no time limit) for
// about a minute of CPU, and two such submits stopped every other skill's review meanwhile.
import { randomInt } from 'node:crypto';
import { type Actors, createActors, createDraft, submit, uploadBundle } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { buildZip, skillMd } from '../support/zip-builders.js';

let h: Harness;
let a: Actors;
let worker: WorkerProcess;

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'skill-bundle' } });
});
afterAll(async () => {
  await worker.stop();
  await h.close();
});

/** Whitespace that compresses no better than 4:1, so the upload's zip-bomb ratio rule lets it through. */
const whitespace = (length: number) => Array.from({ length }, () => [' ', '\t', '\v', '\f'][randomInt(4)]).join('');

it('reviews a SKILL.md heading and requirement lines with long runs of whitespace inside at once', async () => {
  const draft = await createDraft(h, a, 'skill');
  const zip = await buildZip({
    'SKILL.md': `${skillMd('pdf-tools')}\n## Examples\n\n### Split a${whitespace(200_000)}PDF\n\nAsk to split it.\n`,
    'requirements.txt': `pypdf >=4${whitespace(30_000)}x\nrequests${whitespace(30_000)}\n`,
  });
  expect((await uploadBundle(h, a, draft, zip)).status).toBe(200);
  expect((await submit(h, a, 'skill', draft.id)).status).toBe(200);

  // Before the fix the review took about a minute of one core; a linear reading takes milliseconds.
  const version = await waitUntil(async () => {
    const detail = (await h.http.get(`/api/v1/publisher/skill/${draft.id}`).set(bearer(a.publisher.session))).body;
    const pending = detail.versions?.find((v: { id: string }) => v.id === draft.versionId);
    return pending?.bundleFiles?.length ? pending : undefined;
  }, 20_000);
  expect(version.examples).toEqual([
    expect.objectContaining({ source: 'skill-md', title: expect.stringMatching(/^Split a\s{200000}PDF$/) }),
  ]);
  expect(version.dependencies).toEqual([
    { name: 'pypdf', version: expect.stringMatching(/^>=4\s+x$/), source: 'requirements.txt' },
    { name: 'requests', source: 'requirements.txt' },
  ]);
}, 120_000);
