// Temp files left by a write whose process died (a SIGKILL mid-upload) are removed by a scheduled maintenance job
// once an hour old; a write in progress and the stored objects are left alone.
import { mkdir, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { schedules } from '../../shared/queues/schedules.js';
import { createHarness, type Harness, startProcess, waitUntil } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

it('is a scheduled maintenance job', () => {
  expect(schedules).toContainEqual({
    id: 'temp-files',
    queue: 'maintenance',
    job: 'temp-files',
    repeat: { pattern: '*/15 * * * *' },
  });
});

it('removes temp files untouched for an hour, and only those', async () => {
  const tempDir = path.join(path.resolve(h.config.STORAGE_LOCAL_DIR), '.tmp');
  await mkdir(tempDir, { recursive: true });
  const orphan = path.join(tempDir, 'crashed-upload.part');
  const recent = path.join(tempDir, 'upload-in-progress.part');
  await writeFile(orphan, 'half a zip');
  await writeFile(recent, 'a zip being written');
  const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
  await utimes(orphan, twoHoursAgo, twoHoursAgo);
  const stored = await h.ctx.storage.put('temp-test/kept.txt', Readable.from([Buffer.from('kept')]), {
    contentType: 'text/plain',
  });

  const worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'maintenance' } });
  try {
    const job = await h.ctx.queues.add('maintenance', 'temp-files', {});
    const result = await waitUntil(async () =>
      (await job.getState()) === 'completed'
        ? (await h.ctx.queues.queue('maintenance').getJob(job.id as string))?.returnvalue
        : undefined,
    );
    expect(result).toEqual({ removedTempFiles: 1 });
  } finally {
    await worker.stop();
  }
  const left = await readdir(tempDir);
  expect(left).toContain('upload-in-progress.part');
  expect(left).not.toContain('crashed-upload.part');
  expect(await h.ctx.storage.exists(stored.key)).toBe(true);
  await rm(recent, { force: true });
  await h.ctx.storage.delete(stored.key);
});
