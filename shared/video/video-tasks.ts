// The video task service of the API: create (idempotent per key for 24 h, charged up front), read, list, cancel.
import type { AppContext } from '../context.js';
import { AppError, conflict, notFound } from '../errors/app-error.js';
import { closeCharge, openCharge } from '../gateway/accounting.js';
import type { GatewayCaller } from '../gateway/gateway-caller.js';
import type { ModelEntry } from '../gateway/model-registry.js';
import { videoCostMicros } from '../gateway/pricing.js';
import { assertSameRequest, requestFingerprint, withIdempotencyClaim } from '../idempotency/idempotency-claims.js';
import { closeTaskCharge } from './video-billing.js';
import { newVideoId } from './video-ids.js';
import type { NormalizedVideoRequest } from './video-request.js';
import { scheduleCancelForwarding, startTaskChain } from './video-schedule.js';
import {
  expireIdempotencyKey,
  insertTask,
  insertTaskWithinInlineBound,
  isOpen,
  openStatuses,
  taskByIdempotencyKey,
  taskOfProject,
  tasksOfProject,
  transition,
  type VideoTask,
} from './video-store.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/**
 * Creates a task. With an Idempotency-Key, the key is claimed while the task is created (a concurrent request with
 * the key gets 409, or 422 with another body); a repeat within 24 h gets the first task back, or 422 when its
 * request differs from the first one's.
 */
export async function createVideoTask(
  ctx: AppContext,
  caller: GatewayCaller,
  input: { model: ModelEntry; normalized: NormalizedVideoRequest; idempotencyKey?: string },
): Promise<VideoTask> {
  const { idempotencyKey } = input;
  if (!idempotencyKey) return insertNewTask(ctx, caller, input, undefined);
  // The stored request names each inline image by its SHA-256, so the fingerprint covers the images' bytes without
  // hashing the data URLs again.
  const { seconds, request } = input.normalized;
  const fingerprint = requestFingerprint({ model: input.model.id, seconds, request });
  const keyed = { key: idempotencyKey, fingerprint, windowStart: new Date(Date.now() - IDEMPOTENCY_WINDOW_MS) };
  return withIdempotencyClaim(
    ctx,
    { scope: `video:${caller.projectId}`, key: idempotencyKey, fingerprint },
    async () => {
      const earlier = await taskByIdempotencyKey(ctx.db, caller.projectId, idempotencyKey, keyed.windowStart);
      if (earlier) return replayed(earlier, fingerprint);
      await expireIdempotencyKey(ctx.db, caller.projectId, idempotencyKey, keyed.windowStart);
      return insertNewTask(ctx, caller, input, keyed);
    },
  );
}

function replayed(earlier: VideoTask, fingerprint: string): VideoTask {
  assertSameRequest(earlier.requestFingerprint, fingerprint);
  return earlier;
}

async function insertNewTask(
  ctx: AppContext,
  caller: GatewayCaller,
  input: { model: ModelEntry; normalized: NormalizedVideoRequest },
  keyed: { key: string; fingerprint: string; windowStart: Date } | undefined,
): Promise<VideoTask> {
  const { model, normalized } = input;
  const price = videoCostMicros(model, normalized.seconds);
  const deadlineMs = ctx.config.VIDEO_TASK_DEADLINE_MS;
  const charge = await openCharge(ctx, caller, {
    operation: 'video',
    model: model.id,
    reserveMicros: price,
    // The hold outlives the task's deadline, so the sweep never releases money of a running task.
    reservationExpiresInMs: deadlineMs + 3_600_000,
  });
  const id = newVideoId();
  const row = {
    id,
    organizationId: caller.organizationId,
    projectId: caller.projectId,
    accountId: caller.accountId,
    apiKeyId: caller.keyId ?? null,
    model: model.id,
    seconds: normalized.seconds,
    priceMicros: price,
    request: normalized.request,
    requestLogId: charge.requestLogId,
    idempotencyKey: keyed?.key ?? null,
    requestFingerprint: keyed?.fingerprint ?? null,
    deadlineAt: new Date(Date.now() + deadlineMs),
  };
  let stored: VideoTask | undefined | { held: number };
  try {
    stored = normalized.inlineImages.length
      ? await insertTaskWithinInlineBound(
          ctx.db,
          { ...row, inlineImages: normalized.inlineImages, inlineImageBytes: inlineBytes(normalized) },
          ctx.config.VIDEO_INLINE_IMAGES_MAX_BYTES,
        )
      : await insertTask(ctx.db, row);
  } catch (err) {
    await closeCharge(ctx, charge, { status: 'failed', costMicros: 0n, errorMessage: 'task not stored' });
    throw err;
  }
  if (stored && 'held' in stored) {
    await closeCharge(ctx, charge, { status: 'failed', costMicros: 0n, errorMessage: 'inline images bound' });
    throw inlineImagesPending(stored.held, ctx.config.VIDEO_INLINE_IMAGES_MAX_BYTES);
  }
  const task = stored;
  if (!task) {
    // The same key won a concurrent create (its claim had lapsed, or Redis lost it): this request's reservation
    // goes back, the earlier task answers.
    await closeCharge(ctx, charge, { status: 'cancelled', costMicros: 0n, errorMessage: 'idempotent replay' });
    const earlier = keyed && (await taskByIdempotencyKey(ctx.db, caller.projectId, keyed.key, keyed.windowStart));
    if (!earlier) throw conflict('Video.IdempotencyConflict', 'A concurrent request with this Idempotency-Key failed.');
    return replayed(earlier, keyed.fingerprint);
  }
  // The task is stored and its price reserved: should the enqueue fail, the caller still gets the task, and the
  // video sweep starts its chain within a minute or two.
  await startTaskChain(ctx, task.id).catch((err: Error) =>
    ctx.logger.warn({ taskId: task.id, err: err.message }, 'video task stored but not enqueued; the sweep will'),
  );
  return task;
}

const inlineBytes = (normalized: NormalizedVideoRequest) =>
  normalized.request.images.reduce((sum, image) => sum + ('inline' in image ? image.inline.bytes : 0), 0);

const mib = (bytes: number) => `${Math.ceil(bytes / 1024 / 1024)} MiB`;

/** 429: the organization's tasks already hold as many inline image bytes as the bound allows. */
const inlineImagesPending = (held: number, max: number) =>
  new AppError(
    'Video.InlineImagesPending',
    429,
    `This organization's video tasks already hold ${mib(held)} of inline (data URL) reference images not yet ` +
      `submitted for good (at most ${mib(max)}); retry once some have been, or send the images as http(s) URLs.`,
    { headers: { 'retry-after': '30' } },
  );

const noSuchVideo = (id: string) => notFound('Video.NotFound', `No video task ${id} in this project.`);

export async function getVideoTask(ctx: AppContext, caller: GatewayCaller, id: string): Promise<VideoTask> {
  const task = await taskOfProject(ctx.db, id, caller.projectId);
  if (!task) throw noSuchVideo(id);
  return task;
}

export async function listVideoTasks(ctx: AppContext, caller: GatewayCaller, page: { limit: number; after?: string }) {
  return listProjectVideoTasks(ctx, caller.projectId, page);
}

/** A project's tasks, newest first: for its gateway key (above) and for its members in the console. */
export async function listProjectVideoTasks(
  ctx: AppContext,
  projectId: string,
  page: { limit: number; after?: string | undefined },
) {
  const rows = await tasksOfProject(ctx.db, projectId, page);
  return { tasks: rows.slice(0, page.limit), hasMore: rows.length > page.limit };
}

/** Cancels a queued or in-progress task (counted as a request, free), releases its reservation, tells the upstream. */
export async function cancelVideoTask(ctx: AppContext, caller: GatewayCaller, id: string): Promise<VideoTask> {
  const task = await getVideoTask(ctx, caller, id);
  const charge = await openCharge(ctx, caller, { operation: 'video.cancel', model: task.model, reserveMicros: 0n });
  const cancelled = isOpen(task.status)
    ? await transition(ctx.db, id, openStatuses, { status: 'cancelled', finishedAt: new Date() })
    : undefined;
  await closeCharge(ctx, charge, {
    status: cancelled ? 'succeeded' : 'failed',
    httpStatus: cancelled ? 200 : 409,
    costMicros: 0n,
  });
  if (!cancelled) {
    const now = (await taskOfProject(ctx.db, id, caller.projectId)) ?? task;
    throw conflict('Video.NotCancellable', `Video task ${id} is ${now.status} and can no longer be cancelled.`);
  }
  await closeTaskCharge(ctx, cancelled);
  // The task's own chain forwards the cancel too when it next looks: this job only makes it prompt.
  await scheduleCancelForwarding(ctx, id).catch((err: Error) =>
    ctx.logger.warn({ taskId: id, err: err.message }, 'cancel stored; forwarding it upstream is left to the chain'),
  );
  return { ...cancelled, chargeClosed: true };
}
