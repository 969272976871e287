// One Publisher's submits against everyone else's skill reviews. Regression of a review finding: the review queue is
// first come, first served with two slots per worker, and each submit queued a parse job, so a Publisher who
// withdrew and submitted one version in a loop queued a full review of its bundle per round (every one parsed, since
// the version was in review again when it ran), and its items in review all ran ahead of another Publisher's.
import { jest } from '@jest/globals';
import type { Job } from 'bullmq';
import { type Actors, createActors, createDraft, submit } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { buildZip, skillMd } from '../support/zip-builders.js';

jest.setTimeout(180_000);

const LOOPS = 12;
const ITEMS = 4;

let h: Harness;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  h = await createHarness({ SKILL_REVIEWS_PER_ACCOUNT: '1' });
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
});

async function submittedSkill(a: Actors) {
  const draft = await createDraft(h, a, 'skill');
  const zip = await buildZip({ 'SKILL.md': skillMd('pdf-tools'), 'requirements.txt': 'pypdf>=4\n' });
  await h.http
    .post(`/api/v1/publisher/skill/${draft.id}/versions/${draft.versionId}/package`)
    .set(bearer(a.publisher.session))
    .attach('file', zip, { filename: 'bundle.zip', contentType: 'application/zip' })
    .expect(200);
  expect((await submit(h, a, 'skill', draft.id)).status).toBe(200);
  return draft;
}

const withdraw = (a: Actors, id: string) =>
  h.http.post(`/api/v1/publisher/skill/${id}/withdraw`).set(bearer(a.publisher.session)).send({}).expect(200);

const parsed = (job: Job) => (job.returnvalue as { outcome?: string } | null)?.outcome === 'parsed';

it("reviews another Publisher's skill before one Publisher's many submits, each version once", async () => {
  const attacker = await createActors(h);
  const victim = await createActors(h);
  const looped = await submittedSkill(attacker);
  for (let i = 0; i < LOOPS; i++) {
    await withdraw(attacker, looped.id);
    expect((await submit(h, attacker, 'skill', looped.id)).status).toBe(200);
  }
  for (let i = 1; i < ITEMS; i++) await submittedSkill(attacker);
  const theirs = await submittedSkill(victim);

  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'skill-bundle' } });
  const queue = h.ctx.queues.queue('skill-bundle');
  const jobs = await waitUntil(async () => {
    const all = await queue.getJobs(['completed', 'failed']);
    return all.length === LOOPS + ITEMS + 1 ? all : undefined;
  }, 120_000);
  expect(await queue.getJobs(['failed'])).toEqual([]);

  // The looped version was reviewed once, by the job of its last submit; the others did nothing.
  const ofLooped = jobs.filter((j) => j.data.versionId === looped.versionId);
  expect(ofLooped).toHaveLength(LOOPS + 1);
  expect(ofLooped.filter(parsed)).toHaveLength(1);

  // The victim's review did not wait for all of the attacker's: at least one of those started after it ended.
  const victimJob = jobs.find((j) => j.data.versionId === theirs.versionId);
  const attackerReviews = jobs.filter((j) => parsed(j) && j.data.versionId !== theirs.versionId);
  expect(attackerReviews).toHaveLength(ITEMS);
  const startedAfter = attackerReviews.filter((j) => (j.processedOn ?? 0) > (victimJob?.finishedOn ?? Infinity));
  expect(startedAfter.length).toBeGreaterThanOrEqual(1);
});
