// One worker step of a video task: submit upstream (after checking reference images), or poll it, then either
// schedule the next step (a delayed job) or finish the task through a compare-and-set transition and close its
// charge. A failed upstream task is replaced once; a task past its deadline fails; a cancel is forwarded upstream.
import type { AppContext } from '../context.js';
import { loadModelRegistry } from '../gateway/model-registry.js';
import { UpstreamVideoError, type VideoProvider, videoProviderFor } from '../providers/video/index.js';
import { referenceImagesProblem } from './reference-images.js';
import { closeTaskCharge } from './video-billing.js';
import { rehostVideo } from './video-rehost.js';
import { jitteredInterval, scheduleStep } from './video-schedule.js';
import {
  advanceStep,
  isOpen,
  markUpstreamCancelled,
  openStatuses,
  recordUpstreamTask,
  taskById,
  transition,
  type VideoTask,
} from './video-store.js';

export const MAX_UPSTREAM_TASKS = 2;

export type AdvanceResult =
  | 'missing'
  | 'stale'
  | 'finished'
  | 'scheduled'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'superseded';

/** `startedAt`: when this step began; the next poll is timed from it, so a slow step does not stretch the gap. */
type Step = { ctx: AppContext; provider: VideoProvider; task: VideoTask; step: number; startedAt: number };

export async function advanceVideoTask(
  ctx: AppContext,
  taskId: string,
  step: number | undefined,
  provider: VideoProvider = videoProviderFor(ctx.config),
): Promise<AdvanceResult> {
  const startedAt = Date.now();
  const task = await taskById(ctx.db, taskId);
  if (!task) return 'missing';
  if (!isOpen(task.status)) {
    await finishAftermath(ctx, provider, task);
    return 'finished';
  }
  // A job of an earlier step (a duplicate, or one that ran late) must not poll again beside the current chain.
  if (step === undefined || step < task.step) return 'stale';
  const s: Step = { ctx, provider, task, step, startedAt };
  if (Date.now() >= task.deadlineAt.getTime()) {
    return fail(s, 'The video task did not finish before its deadline.', 'server_error');
  }
  if (task.upstreamTaskId === null) return submit(s);
  return poll(s);
}

/** The part of a final state that may have been cut short by a crash: the charge, the upstream cancellation. */
async function finishAftermath(ctx: AppContext, provider: VideoProvider, task: VideoTask): Promise<void> {
  await closeTaskCharge(ctx, task);
  if (task.status === 'cancelled' && task.upstreamTaskId && !task.upstreamCancelled) {
    await provider.cancel(task.upstreamTaskId);
    await markUpstreamCancelled(ctx.db, task.id);
  }
}

async function next(s: Step): Promise<'scheduled'> {
  const delayMs = Math.max(0, jitteredInterval(s.ctx.config.VIDEO_POLL_INTERVAL_MS) - (Date.now() - s.startedAt));
  // The job of the next step first, then the step counter: a crash in between leaves a job that still runs.
  await scheduleStep(s.ctx, s.task.id, s.step + 1, delayMs);
  await advanceStep(s.ctx.db, s.task.id, s.step + 1);
  return 'scheduled';
}

async function fail(s: Step, message: string, type: string): Promise<AdvanceResult> {
  const failed = await transition(s.ctx.db, s.task.id, openStatuses, {
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

async function submit(s: Step): Promise<AdvanceResult> {
  const { ctx, task } = s;
  if (task.upstreamAttempts === 0 && task.request.images.length > 0) {
    const problem = await referenceImagesProblem(
      ctx.config,
      task.request.images.map((i) => i.url),
    );
    if (problem) return fail(s, problem, 'invalid_request_error');
  }
  return startUpstreamTask(s);
}

async function startUpstreamTask(s: Step): Promise<AdvanceResult> {
  const { ctx, provider, task } = s;
  const model = loadModelRegistry(ctx.config.MODEL_REGISTRY).get(task.model);
  let upstreamId: string;
  try {
    upstreamId = await provider.submit({
      upstreamModel: model?.upstreamModel ?? task.model,
      seconds: task.seconds,
      ...task.request,
    });
  } catch (err) {
    if (err instanceof UpstreamVideoError && err.permanent) {
      return fail(s, `The video provider refused the task: ${err.message}`, 'invalid_request_error');
    }
    ctx.logger.warn({ taskId: task.id, err: (err as Error).message }, 'video submit failed; trying again later');
    return next(s);
  }
  const recorded = await recordUpstreamTask(ctx.db, task, upstreamId);
  if (!recorded) {
    // Cancelled (or otherwise finished) while we were submitting: the new upstream task is not wanted.
    await provider.cancel(upstreamId).catch(() => undefined);
    const now = await taskById(ctx.db, task.id);
    if (now) await finishAftermath(ctx, provider, now);
    return 'superseded';
  }
  return next({ ...s, task: recorded });
}

async function poll(s: Step): Promise<AdvanceResult> {
  const { ctx, provider, task } = s;
  const upstreamId = task.upstreamTaskId as string;
  let state: Awaited<ReturnType<VideoProvider['status']>>;
  try {
    state = await provider.status(upstreamId);
  } catch (err) {
    ctx.logger.warn({ taskId: task.id, err: (err as Error).message }, 'video poll failed; polling again later');
    return next(s);
  }
  switch (state.state) {
    case 'queued':
      return next(s);
    case 'running': {
      // Seedance reports no progress: each running poll then moves it 5 points, short of 100 until the end.
      const reported = state.progress ?? Math.min(95, task.progress + 5);
      const progress = Math.min(99, Math.max(task.progress, reported));
      await transition(ctx.db, task.id, openStatuses, { status: 'in_progress', progress });
      return next(s);
    }
    case 'succeeded':
      return complete(s, state);
    case 'failed':
    case 'cancelled': {
      const reason = state.error ?? `the upstream task was ${state.state}`;
      if (task.upstreamAttempts < MAX_UPSTREAM_TASKS) {
        ctx.logger.info({ taskId: task.id, reason }, 'upstream video task failed; retrying once with a new one');
        return startUpstreamTask(s);
      }
      return fail(s, `Video generation failed: ${reason}`, 'server_error');
    }
  }
}

async function complete(s: Step, state: Awaited<ReturnType<VideoProvider['status']>>): Promise<AdvanceResult> {
  const { ctx, provider, task } = s;
  let stored: Awaited<ReturnType<typeof rehostVideo>>;
  try {
    stored = await rehostVideo(ctx, provider, task.id, task.upstreamTaskId as string, state);
  } catch (err) {
    ctx.logger.warn({ taskId: task.id, err: (err as Error).message }, 'video rehost failed; trying again later');
    return next(s);
  }
  const completed = await transition(ctx.db, task.id, openStatuses, {
    status: 'completed',
    progress: 100,
    objectKey: stored.objectKey,
    videoUrl: stored.videoUrl,
    objectStoreUrl: stored.objectStoreUrl,
    finishedAt: new Date(),
  });
  if (!completed) {
    await ctx.storage.delete(stored.objectKey).catch(() => undefined);
    return 'superseded';
  }
  await closeTaskCharge(ctx, completed);
  return 'completed';
}
