// The review thread's wall time, through the real skill-bundle worker: a review that outlasts
// SKILL_REVIEW_TIMEOUT_MS is stopped and the version goes back to its publisher saying why, instead of holding one
// of the queue's two slots for as long as hostile text makes the parsing take.
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
  // No thread even starts within a millisecond: every review here runs out of time.
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'skill-bundle', SKILL_REVIEW_TIMEOUT_MS: '1' } });
});
afterAll(async () => {
  await worker.stop();
  await h.close();
});

it('sends a version whose review outlasts the time limit back as changes_requested, saying so', async () => {
  const draft = await createDraft(h, a, 'skill');
  const zip = await buildZip({ 'SKILL.md': skillMd('pdf-tools') });
  expect((await uploadBundle(h, a, draft, zip)).status).toBe(200);
  expect((await submit(h, a, 'skill', draft.id)).status).toBe(200);

  const back = await waitUntil(async () => {
    const detail = (await h.http.get(`/api/v1/publisher/skill/${draft.id}`).set(bearer(a.publisher.session))).body;
    return detail.status === 'changes_requested' ? detail : undefined;
  }, 30_000);
  expect(JSON.stringify(back)).toContain('The bundle could not be reviewed within 0.001 seconds');
  // The worker is still there for the next review.
  expect(worker.child.exitCode).toBeNull();
}, 60_000);
