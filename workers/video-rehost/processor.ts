// The `video-rehost` queue: a finished upstream video is streamed into object storage, then the task completes and
// its charge settles. A queue of its own, so a burst of finishing videos waits here in order instead of taking the
// CPU and the worker slots the polls of every other task need.
import { completeVideoTask } from '../../shared/video/video-complete.js';
import type { Processor } from '../processor.js';

const processor: Processor = async (job, ctx) => {
  if (job.name !== 'rehost') throw new Error(`video-rehost has no job named ${job.name}`);
  return completeVideoTask(ctx, (job.data as { taskId: string }).taskId);
};

export default processor;
/** Each job streams a whole video; a few at a time per process keep the polls on time and the bandwidth bounded. */
export const concurrency = 8;
