// The `video` queue. `advance` is one step of a task's state machine (see shared/video); a step that must look
// again later re-schedules its own job as delayed instead of finishing it. `forward-cancel` settles a cancel;
// `sweep` restarts the chain of open tasks whose job was lost.
import { DelayedError } from 'bullmq';
import { advanceVideoTask, forwardVideoCancellation } from '../../shared/video/video-advance.js';
import { jitteredInterval } from '../../shared/video/video-schedule.js';
import { sweepVideoTasks } from '../../shared/video/video-sweep.js';
import type { Processor } from '../processor.js';

const processor: Processor = async (job, ctx, token) => {
  switch (job.name) {
    case 'advance': {
      // The next poll is timed from the start of this one, so a slow step does not stretch the gap.
      const startedAt = Date.now();
      const { taskId } = job.data as { taskId: string };
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
    }
    case 'forward-cancel':
      return forwardVideoCancellation(ctx, (job.data as { taskId: string }).taskId);
    case 'sweep':
      return sweepVideoTasks(ctx);
    default:
      throw new Error(`video has no job named ${job.name}`);
  }
};

export default processor;
/** Steps are short HTTP calls and a query or two; rehosting streams. Many run at once without sleeping. */
export const concurrency = 200;
