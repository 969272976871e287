// One account's share of skill reviews against a Publisher who withdraws and submits a version again while its review
// runs. Regression of review finding #101: a share's entry was named by the version alone, and a job entering the
// share first removed the entry of its name (so that a job run again after its worker died takes its own place back),
// so the new submit's job took the place of the review still running: both ran at once, and a Publisher looping
// withdraw and submit held as many review slots as it liked. The review in progress is held while it reads the
// stored bundle's metadata, a named pipe the test opens for writing only when it chooses.
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Job } from 'bullmq';
import { createActors, createDraft, submit, uploadBundle } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { buildZip, skillMd } from '../support/zip-builders.js';

jest.setTimeout(120_000);

let h: Harness;
let worker: WorkerProcess | undefined;
let storageRoot: string;
/** The named pipe standing for the stored bundle's metadata, and the regular file it stands for. */
let pipe: string | undefined;
let metaText = '';
let writer: number | undefined;

beforeAll(async () => {
  storageRoot = mkdtempSync(path.join(tmpdir(), 'ockhub-review-resubmit-'));
  h = await createHarness({ SKILL_REVIEWS_PER_ACCOUNT: '1', STORAGE_LOCAL_DIR: storageRoot });
});
afterAll(async () => {
  // Whatever happened, no reader is left waiting on the pipe: the worker then stops on its own.
  if (pipe) restoreMeta();
  if (writer !== undefined) closeSync(writer);
  await worker?.stop();
  await h?.close();
  rmSync(storageRoot, { recursive: true, force: true });
});

function restoreMeta() {
  if (!pipe) return;
  const regular = `${pipe}.regular`;
  writeFileSync(regular, metaText);
  renameSync(regular, pipe);
}

/** The worker process's open descriptors on the pipe: one per review reading the bundle's metadata. */
const readersInWorker = () =>
  readdirSync(`/proc/${worker?.child.pid}/fd`).filter((fd) => {
    try {
      return readlinkSync(`/proc/${worker?.child.pid}/fd/${fd}`) === pipe;
    } catch {
      return false;
    }
  }).length;

/** Opens the pipe for writing once a reader has it open (before, the open fails with ENXIO). */
const openWriter = () => {
  try {
    return openSync(pipe as string, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
};

const outcome = (job: Job) => (job.returnvalue as { outcome?: string } | null)?.outcome;

it('runs the new submit’s review only after the one in progress has ended: one review of an account at a time', async () => {
  const a = await createActors(h);
  const draft = await createDraft(h, a, 'skill');
  const zip = await buildZip({ 'SKILL.md': skillMd('pdf-tools'), 'requirements.txt': 'pypdf>=4\n' });
  expect((await uploadBundle(h, a, draft, zip)).status).toBe(200);
  const metaDir = path.join(storageRoot, '.meta', 'skill-bundles', draft.id, draft.versionId);
  const [metaFile] = readdirSync(metaDir);
  pipe = path.join(metaDir, metaFile as string);
  metaText = readFileSync(pipe, 'utf8');
  unlinkSync(pipe);
  execFileSync('mkfifo', [pipe]);

  expect((await submit(h, a, 'skill', draft.id)).status).toBe(200);
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'skill-bundle' } });
  // The first submit's review is in the account's share, reading the metadata.
  writer = await waitUntil(async () => openWriter(), 60_000);
  await waitUntil(async () => readersInWorker() === 1);

  await h.http
    .post(`/api/v1/publisher/skill/${draft.id}/withdraw`)
    .set(bearer(a.publisher.session))
    .send({})
    .expect(200);
  expect((await submit(h, a, 'skill', draft.id)).status).toBe(200);
  const queue = h.ctx.queues.queue('skill-bundle');
  // The second submit's job has either been put off by the share (back in the delayed set without spending an
  // attempt: a retry, when it ran before the submit had committed, spends one) or started its own review.
  const putOff = async () => (await queue.getJobs(['delayed'])).some((job) => job.attemptsStarted > job.attemptsMade);
  await waitUntil(async () => readersInWorker() > 1 || (await putOff()), 60_000);
  expect(readersInWorker()).toBe(1);

  restoreMeta();
  writeSync(writer, metaText);
  closeSync(writer);
  writer = undefined;
  const jobs = await waitUntil(async () => {
    const done = await queue.getJobs(['completed', 'failed']);
    return done.length === 2 ? done : undefined;
  }, 60_000);
  expect(await queue.getJobs(['failed'])).toEqual([]);
  const [first, second] = [...jobs].sort((x, y) => (x.timestamp ?? 0) - (y.timestamp ?? 0));
  // The first submit's review found a newer submit when it ended and recorded nothing; the second's recorded it.
  expect([outcome(first as Job), outcome(second as Job)]).toEqual(['skipped', 'parsed']);
  expect(second?.processedOn ?? 0).toBeGreaterThanOrEqual(first?.finishedOn ?? Infinity);
});
