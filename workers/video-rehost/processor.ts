// The `video-rehost` queue: a finished upstream video is streamed into object storage, then the task completes and
// its charge settles. A queue of its own, so a burst of finishing videos waits here in order instead of taking the
// CPU and the worker slots the polls of every other task need.
import { completeVideoTask } from '../../shared/video/video-complete.js';
import { defineQueueWorker } from '../processor.js';

export default defineQueueWorker(
  'video-rehost',
  { rehost: ({ taskId }, ctx) => completeVideoTask(ctx, taskId) },
  // Each job streams a whole video; a few at a time per process keep the polls on time and the bandwidth bounded.
  { concurrency: 8 },
);
