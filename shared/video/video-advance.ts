// One worker step of a video task: submit upstream (after checking reference images), or poll it, then either ask
// to be run again later ('scheduled'), hand a finished video to the video-rehost queue ('handed-off', see
// video-complete.ts), or fail the task through a compare-and-set transition and close its charge. A failed
// upstream task is replaced once; a task past its deadline fails; a cancel is forwarded upstream.
import type { AppContext } from '../context.js';
import { loadModelRegistry } from '../gateway/model-registry.js';
import { UpstreamVideoError, type VideoProvider, videoProviderFor } from '../providers/video/index.js';
import { enterImageCheck } from './image-check-share.js';
import { referenceImagesProblem } from './reference-images.js';
import { countUnconfirmedSubmit, MAX_UNCONFIRMED_SUBMITS, submitSurelyNotTaken } from './unconfirmed-submits.js';
import { closeTaskCharge } from './video-billing.js';
import { pollViewById, recordPoll, type TaskPollView } from './video-poll-store.js';
import { startRehost } from './video-schedule.js';
import {
  claimUpstreamCancel,
  inlineImagesOf,
  isOpen,
  openStatuses,
  recordUpstreamTask,
  releaseUpstreamCancel,
  taskById,
  transition,
  type VideoTask,
} from './video-store.js';

export const MAX_UPSTREAM_TASKS = 2;

/** 'scheduled': the step wants to run again after the poll interval; every other result ends the chain. */
export type AdvanceResult =
  | 'missing'
  | 'finished'
  | 'scheduled'
  | 'handed-off'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'superseded';

export type Step = { ctx: AppContext; provider: VideoProvider };
type UpstreamState = Awaited<ReturnType<VideoProvider['status']>>;

export async function advanceVideoTask(
  ctx: AppContext,
  taskId: string,
  provider: VideoProvider = videoProviderFor(ctx.config),
): Promise<AdvanceResult> {
  const s: Step = { ctx, provider };
  const view = await pollViewById(ctx, taskId);
  if (!view) return 'missing';
  if (!isOpen(view.status)) return settleFinished(s, taskId);
  if (Date.now() >= view.deadlineAt.getTime()) return failPastDeadline(s, view.id);
  if (view.upstreamTaskId === null) {
    const task = await taskById(ctx.db, taskId);
    if (!task) return 'missing';
    // A concurrent step recorded an upstream task after the (batched) view was read: poll that one later,
    // never start a second upstream task for the same video.
    if (task.upstreamTaskId !== null) return 'scheduled';
    return submit(s, task);
  }
  return poll(s, view, view.upstreamTaskId);
}

/** The job a cancel enqueues: forwards the cancel upstream (and closes the charge) once the task is final. */
export async function forwardVideoCancellation(
  ctx: AppContext,
  taskId: string,
  provider: VideoProvider = videoProviderFor(ctx.config),
): Promise<AdvanceResult> {
  const view = await pollViewById(ctx, taskId);
  if (!view) return 'missing';
  if (isOpen(view.status)) return 'superseded';
  return settleFinished({ ctx, provider }, taskId);
}

/** The part of a final state that may have been cut short by a crash: the charge, the upstream cancellation. */
export async function settleFinished(s: Step, taskId: string): Promise<'finished' | 'missing'> {
  const task = await taskById(s.ctx.db, taskId);
  if (!task) return 'missing';
  await closeTaskCharge(s.ctx, task);
  if (task.status === 'cancelled' && task.upstreamTaskId && (await claimUpstreamCancel(s.ctx.db, task.id))) {
    await s.provider.cancel(task.upstreamTaskId).catch(async (err) => {
      await releaseUpstreamCancel(s.ctx.db, task.id);
      throw err;
    });
  }
  return 'finished';
}

export const failPastDeadline = (s: Step, taskId: string) =>
  fail(s, taskId, 'The video task did not finish before its deadline.', 'server_error');

async function fail(s: Step, taskId: string, message: string, type: string): Promise<AdvanceResult> {
  const failed = await transition(s.ctx.db, taskId, openStatuses, {
    status: 'failed',
    errorMessage: message,
    errorType: type,
    finishedAt: new Date(),
  });
  if (!failed) return 'superseded';
  await closeTaskCharge(s.ctx, failed);
  if (failed.upstreamTaskId) await s.provider.cancel(failed.upstreamTaskId).catch(() => undefined);
  return 'failed';
}

async function submit(s: Step, task: VideoTask): Promise<AdvanceResult> {
  const images = await submissionImages(s, task);
  if (!images) return failWithoutImages(s, task);
  if (task.upstreamAttempts === 0 && images.length > 0) {
    // Image URLs are read in this slot: an organization with its share of checks running waits for the next poll.
    const downloads = images.some((i) => !i.url.startsWith('data:'));
    const leave = downloads
      ? enterImageCheck(task.organizationId, s.ctx.config.VIDEO_IMAGE_CHECKS_PER_ORGANIZATION)
      : () => undefined;
    if (!leave) return 'scheduled';
    let problem: string | null;
    try {
      problem = await referenceImagesProblem(
        s.ctx.config,
        images.map((i) => i.url),
      );
    } finally {
      leave();
    }
    if (problem) return fail(s, task.id, problem, 'invalid_request_error');
  }
  return startUpstreamTask(s, task, images);
}

type SubmissionImage = { url: string; role: string };

/**
 * The task's images as the upstream takes them: an inline one's data URL from `inline_images`. Undefined when those
 * are gone although the task still has a submission to make (they are dropped only with the last upstream task or
 * a final status, so only a row changed by hand gets here).
 */
async function submissionImages(s: Step, task: VideoTask): Promise<SubmissionImage[] | undefined> {
  const { images } = task.request;
  const inlineCount = images.filter((image) => 'inline' in image).length;
  const inline = inlineCount ? await inlineImagesOf(s.ctx.db, task.id) : [];
  if (!inline || inline.length !== inlineCount) return undefined;
  let next = 0;
  return images.map((image) => ({ role: image.role, url: 'url' in image ? image.url : (inline[next++] as string) }));
}

const failWithoutImages = (s: Step, task: VideoTask) =>
  fail(
    s,
    task.id,
    'The reference images of this video task are no longer held; it cannot be submitted.',
    'server_error',
  );

async function startUpstreamTask(s: Step, task: VideoTask, images: SubmissionImage[]): Promise<AdvanceResult> {
  const { ctx, provider } = s;
  const model = loadModelRegistry(ctx.config.MODEL_REGISTRY).get(task.model);
  let upstreamId: string;
  try {
    upstreamId = await provider.submit({
      upstreamModel: model?.upstreamModel ?? task.model,
      seconds: task.seconds,
      ...task.request,
      images,
    });
  } catch (err) {
    if (err instanceof UpstreamVideoError && (err.status === 401 || err.status === 403)) {
      // The provider refusing the operator's credentials: its text can echo the key, so only the log keeps it.
      ctx.logger.error({ taskId: task.id, err: err.message }, 'the video provider refused the gateway credentials');
      return fail(s, task.id, 'The video provider refused the gateway’s credentials; try again later.', 'server_error');
    }
    if (err instanceof UpstreamVideoError && err.permanent) {
      return fail(s, task.id, `The video provider refused the task: ${err.message}`, 'invalid_request_error');
    }
    const unconfirmed = submitSurelyNotTaken(err) ? 0 : await countUnconfirmedSubmit(ctx, task);
    if (unconfirmed >= MAX_UNCONFIRMED_SUBMITS) {
      // Each of them may have started a paid generation upstream: no more of them for this task.
      ctx.logger.error({ taskId: task.id, err: (err as Error).message }, 'video submits never confirmed; task failed');
      return fail(
        s,
        task.id,
        `The video provider did not confirm the task after ${MAX_UNCONFIRMED_SUBMITS} submissions; try again later.`,
        'server_error',
      );
    }
    ctx.logger.warn(
      { taskId: task.id, err: (err as Error).message, unconfirmed },
      'video submit failed; trying again later',
    );
    return 'scheduled';
  }
  // The last upstream task this task may have: nothing submits again, so its inline images go in the same UPDATE.
  const last = task.upstreamAttempts + 1 >= MAX_UPSTREAM_TASKS;
  const recorded = await recordUpstreamTask(ctx.db, task, upstreamId, last);
  if (!recorded) {
    // Cancelled (or otherwise finished) while we were submitting: the new upstream task is not wanted.
    await provider.cancel(upstreamId).catch(() => undefined);
    await settleFinished(s, task.id);
    return 'superseded';
  }
  return 'scheduled';
}

async function poll(s: Step, view: TaskPollView, upstreamId: string): Promise<AdvanceResult> {
  const { ctx, provider } = s;
  let state: UpstreamState;
  try {
    state = await provider.status(upstreamId);
  } catch (err) {
    ctx.logger.warn({ taskId: view.id, err: (err as Error).message }, 'video poll failed; polling again later');
    return 'scheduled';
  }
  switch (state.state) {
    case 'queued':
    case 'running': {
      // Seedance reports no progress: each running poll then moves it 5 points, short of 100 until the end.
      const running = state.state === 'running';
      const reported = running ? (state.progress ?? Math.min(95, view.progress + 5)) : view.progress;
      const progress = Math.min(99, Math.max(view.progress, reported));
      const recorded = await recordPoll(ctx, { id: view.id, upstreamTaskId: upstreamId, running, progress });
      if (recorded) return 'scheduled';
      // The task moved on meanwhile: finish what a cancel left (the cancel job may not have run), else step aside.
      const now = await pollViewById(ctx, view.id);
      if (now && !isOpen(now.status)) await settleFinished(s, view.id);
      return 'superseded';
    }
    case 'succeeded':
      // A live rehost job of an earlier hand-off: look again at the next poll, the task then is final or handed.
      return (await startRehost(ctx, view.id)) ? 'handed-off' : 'scheduled';
    case 'failed':
    case 'cancelled': {
      const reason = state.error ?? `the upstream task was ${state.state}`;
      const task = await taskById(ctx.db, view.id);
      if (!task || !isOpen(task.status) || task.upstreamTaskId !== upstreamId) return 'superseded';
      if (task.upstreamAttempts < MAX_UPSTREAM_TASKS) {
        ctx.logger.info({ taskId: task.id, reason }, 'upstream video task failed; retrying once with a new one');
        const images = await submissionImages(s, task);
        return images ? startUpstreamTask(s, task, images) : failWithoutImages(s, task);
      }
      return fail(s, task.id, `Video generation failed: ${reason}`, 'server_error');
    }
  }
}
