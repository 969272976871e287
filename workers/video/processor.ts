// The `video` queue. `advance` is one step of a task's state machine (see shared/video); a step that must look
// again later re-schedules its own job as delayed instead of finishing it. `forward-cancel` settles a cancel;
// `sweep` restarts the chain of open tasks whose job was lost.
import { DelayedError } from 'bullmq';
import type { AppContext } from '../../shared/context.js';
import { advanceVideoTask, forwardVideoCancellation } from '../../shared/video/video-advance.js';
import { jitteredInterval } from '../../shared/video/video-schedule.js';
import { sweepVideoTasks } from '../../shared/video/video-sweep.js';
import { defineQueueWorker } from '../processor.js';

export default defineQueueWorker(
  'video',
  {
    advance: async ({ taskId }, ctx, job, token) => {
      // The next poll is timed from the start of this one, so a slow step does not stretch the gap.
      const startedAt = Date.now();
      // A step that throws (a database or Redis blip) looks again at the next poll rather than spend one of the
      // job's attempts: one job carries the whole task, and BullMQ never gives attempts back. The deadline
      // bounds the retries.
      const result = await advanceVideoTask(ctx, taskId).catch((err: Error) => {
        ctx.logger.warn({ taskId, err: err.message }, 'video step failed; looking again at the next poll');
        return 'scheduled' as const;
      });
      if (result !== 'scheduled') return result;
      await job.moveToDelayed(startedAt + jitteredInterval(ctx.config.VIDEO_POLL_INTERVAL_MS), token);
      throw new DelayedError();
    },
    'forward-cancel': ({ taskId }, ctx) => forwardVideoCancellation(ctx, taskId),
    sweep: (_payload, ctx) => sweepVideoTasks(ctx),
  },
  // Steps are short HTTP calls and a query or two; rehosting streams. Many run at once without sleeping.
  { concurrency: (ctx: AppContext) => ctx.config.VIDEO_WORKER_CONCURRENCY },
);
