// Inline (data URL) reference images are held in PostgreSQL only while a submission may need them (docs/video.md,
// "Reference images"). Regression of a review finding: a create with a 30 MB data URL followed at once by a free
// cancel used to leave ~40 MB in the task's row for nothing, again and again.
import { createHash, randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { eq, sql } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { organizationOfProject } from '../../shared/gateway/project-directory.js';
import { advanceVideoTask } from '../../shared/video/video-advance.js';
import { completeVideoTask } from '../../shared/video/video-complete.js';
import { normalizeVideoRequest } from '../../shared/video/video-request.js';
import { createVideoTask } from '../../shared/video/video-tasks.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { pngOf } from './png-bytes.js';

jest.setTimeout(120_000);

const MiB = 1024 * 1024;
// One 29 MiB image fits an organization's bound, a second one while the first is held does not.
const BOUND = 40 * MiB;

// No worker process: the test runs the worker's steps itself, to look at the row between them.
let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({
    balance: '10',
    simulator: { videoDurationMs: 300 },
    env: { VIDEO_POLL_INTERVAL_MS: '60000', VIDEO_INLINE_IMAGES_MAX_BYTES: String(BOUND) },
  });
});
afterAll(() => w.close());

const TASKS = '/api/v3/contents/generations/tasks';
const model = loadModelRegistry().resolve('seedance-1-0-pro', 'video');
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The task's row as PostgreSQL stores it (pg_column_size of the whole row, TOASTed values counted compressed). */
async function stored(id: string) {
  const [row] = (
    await w.h.ctx.db.execute(
      sql`select pg_column_size(t.*) as "rowBytes", inline_image_bytes as "inlineImageBytes",
                 inline_images is null as "dropped", request
          from video_tasks t where id = ${id}`,
    )
  ).rows as { rowBytes: number; inlineImageBytes: number; dropped: boolean; request: unknown }[];
  if (!row) throw new Error(`no task ${id}`);
  return { ...row, rowBytes: Number(row.rowBytes) };
}

const createWith = (key: string, image: string, prompt = 'a cat') =>
  w.h.http
    .post('/v1/videos')
    .set(bearer(key))
    .send({ model: 'seedance-1-0-pro', prompt, content: [{ type: 'image_url', image_url: { url: image } }] });

describe('a data URL reference image', () => {
  it('is gone from the row after an immediate cancel, which costs nothing; the row keeps its descriptor', async () => {
    const before = await walletOf(w.h, w.org);
    const bytes = randomBytes(29 * MiB);
    const created = await createWith(w.key, dataUrl(bytes));
    expect(created.status).toBe(200);
    const held = await stored(created.body.id);
    expect(held.inlineImageBytes).toBe(29 * MiB);
    expect(held.dropped).toBe(false);

    const cancelled = await w.h.http.post(`/v1/videos/${created.body.id}/cancel`).set(bearer(w.key));
    expect(cancelled.status).toBe(200);
    const after = await stored(created.body.id);
    console.log(`stored row: ${held.rowBytes} bytes while queued, ${after.rowBytes} bytes after the cancel`);
    expect(held.rowBytes).toBeGreaterThan(29 * MiB);
    expect(after.rowBytes).toBeLessThan(4_096);
    expect(after).toMatchObject({ inlineImageBytes: 0, dropped: true });
    expect(after.request).toEqual({
      prompt: 'a cat',
      images: [{ role: 'reference_image', inline: { mediaType: 'image/png', bytes: 29 * MiB, sha256: sha256(bytes) } }],
    });
    // Nothing else holds the image: GET and the list answer from the same small row.
    const got = await w.h.http.get(`/v1/videos/${created.body.id}`).set(bearer(w.key));
    expect(got.body).toMatchObject({ id: created.body.id, status: 'cancelled' });
    const wallet = await walletOf(w.h, w.org);
    expect(wallet.balance).toBe(before.balance);
    expect(wallet.frozenAmount).toBe(0);
  });

  it("answers 429 Video.InlineImagesPending past the organization's bound, takes nothing, and admits once freed", async () => {
    const p = await aProjectWithKey(w.h, '10');
    const first = await createWith(p.key, dataUrl(randomBytes(29 * MiB)));
    expect(first.status).toBe(200);
    const reserved = await walletOf(w.h, p.org);

    const refused = await createWith(p.key, dataUrl(randomBytes(12 * MiB)));
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.body.error).toMatchObject({
      code: 'Video.InlineImagesPending',
      message: expect.stringMatching(/hold 29 MiB of inline .*at most 40 MiB/),
    });
    expect(await walletOf(w.h, p.org)).toEqual(reserved);
    const rows = await w.h.ctx.db
      .select({ id: videoTasks.id })
      .from(videoTasks)
      .where(eq(videoTasks.projectId, p.projectId));
    expect(rows).toHaveLength(1);
    // An image by URL is not held, so it is never refused for it.
    const byUrl = await createWith(p.key, 'https://images.example/a.png');
    expect(byUrl.status).toBe(200);

    expect((await w.h.http.post(`/v1/videos/${first.body.id}/cancel`).set(bearer(p.key))).status).toBe(200);
    const admitted = await createWith(p.key, dataUrl(randomBytes(12 * MiB)));
    expect(admitted.status).toBe(200);
    for (const id of [admitted.body.id, byUrl.body.id]) {
      expect((await w.h.http.post(`/v1/videos/${id}/cancel`).set(bearer(p.key))).status).toBe(200);
    }
    expect((await walletOf(w.h, p.org)).frozenAmount).toBe(0);
  });
});

describe('the worker and inline images', () => {
  async function aTask(prompt: string, image: Buffer) {
    const p = await aProjectWithKey(w.h, '10');
    const caller = {
      accountId: p.org.admin.accountId,
      projectId: p.projectId,
      organizationId: await organizationOfProject(w.h.ctx, p.projectId),
    };
    const normalized = normalizeVideoRequest(
      {
        model: model.id,
        prompt,
        content: [{ type: 'image_url', image_url: { url: dataUrl(image) }, role: 'first_frame' }],
      },
      model,
    );
    return { p, task: await createVideoTask(w.h.ctx, caller, { model, normalized }) };
  }
  const upstreamCreates = (prompt: string) =>
    w.sim.state.requests.filter(
      (r) => r.method === 'POST' && r.path === TASKS && JSON.stringify(r.body).includes(prompt),
    );
  const upstreamAttempts = async (id: string) =>
    (await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.id, id)))[0]?.upstreamAttempts;

  it('submits the image as sent, keeps it for the one retry, and drops it with the last upstream task', async () => {
    // A valid PNG header (the worker reads the size from it) with 5 MiB that do not compress after it.
    const image = Buffer.concat([pngOf(640, 480), randomBytes(5 * MiB)]);
    const prompt = 'Kites over a dune [fail-once] inline-retry';
    const { p, task } = await aTask(prompt, image);

    expect(await advanceVideoTask(w.h.ctx, task.id)).toBe('scheduled');
    const submitted = await stored(task.id);
    // The first upstream task may fail and be replaced once: its image is still needed.
    expect(submitted).toMatchObject({ inlineImageBytes: image.length, dropped: false });
    expect(submitted.rowBytes).toBeGreaterThan(5 * MiB);

    // The first upstream task fails ([fail-once]); a poll replaces it with the last one it may have.
    await waitUntil(
      async () => {
        await advanceVideoTask(w.h.ctx, task.id);
        return (await upstreamAttempts(task.id)) === 2;
      },
      10_000,
      100,
    );
    const last = await stored(task.id);
    console.log(`stored row: ${submitted.rowBytes} bytes after the first submit, ${last.rowBytes} after the last`);
    expect(last).toMatchObject({ inlineImageBytes: 0, dropped: true });
    expect(last.rowBytes).toBeLessThan(4_096);
    const creates = upstreamCreates('inline-retry');
    expect(creates).toHaveLength(2);
    for (const create of creates) {
      expect(create.body).toMatchObject({
        content: expect.arrayContaining([
          { type: 'image_url', image_url: { url: dataUrl(image) }, role: 'first_frame' },
        ]),
      });
    }

    await waitUntil(async () => (await advanceVideoTask(w.h.ctx, task.id)) === 'handed-off', 10_000, 100);
    expect(await completeVideoTask(w.h.ctx, task.id)).toBe('completed');
    expect(await stored(task.id)).toMatchObject({ inlineImageBytes: 0, dropped: true });
    expect((await walletOf(w.h, p.org)).frozenAmount).toBe(0);
  });

  it('drops the image when the task fails on it (a refused reference image), releasing the reservation', async () => {
    const { p, task } = await aTask('A tiny frame inline-refused', pngOf(200, 200));
    expect(await advanceVideoTask(w.h.ctx, task.id)).toBe('failed');
    expect(await stored(task.id)).toMatchObject({ inlineImageBytes: 0, dropped: true });
    expect(upstreamCreates('inline-refused')).toHaveLength(0);
    expect((await walletOf(w.h, p.org)).frozenAmount).toBe(0);
  });

  it('never submits without the image: a task whose image is gone fails cleanly and releases its reservation', async () => {
    const { p, task } = await aTask('A lost frame inline-lost', pngOf(640, 480));
    // What a bug or a hand-made change could leave: an open task, not yet submitted, without its image.
    await w.h.ctx.db
      .update(videoTasks)
      .set({ inlineImages: null, inlineImageBytes: 0 })
      .where(eq(videoTasks.id, task.id));
    expect(await advanceVideoTask(w.h.ctx, task.id)).toBe('failed');
    const got = await w.h.http.get(`/v1/videos/${task.id}`).set(bearer(p.key));
    expect(got.body).toMatchObject({
      status: 'failed',
      error: { type: 'server_error', message: expect.stringMatching(/reference images .* no longer held/) },
    });
    expect(upstreamCreates('inline-lost')).toHaveLength(0);
    expect((await walletOf(w.h, p.org)).frozenAmount).toBe(0);
  });
});
