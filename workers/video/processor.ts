// The `video` queue: one `advance` job is one step of a video task's state machine (see shared/video).
import { advanceVideoTask } from '../../shared/video/video-advance.js';
import type { Processor } from '../processor.js';

const processor: Processor = async (job, ctx) => {
  if (job.name !== 'advance') throw new Error(`video has no job named ${job.name}`);
  const { taskId, step } = job.data as { taskId: string; step?: number };
  return advanceVideoTask(ctx, taskId, step);
};

export default processor;
/** Steps are short HTTP calls and a few queries; rehosting streams. Many run at once without sleeping. */
export const concurrency = 32;
