// skill-bundle/parse: reviews the submitted version's bundle in a worker thread and records the verdict.
import { parseSubmittedBundle } from '../../shared/catalog/skill-bundle-parse.js';
import { defineQueueWorker } from '../processor.js';
import { reviewInThread } from './review-in-thread.js';

export default defineQueueWorker(
  'skill-bundle',
  {
    parse: ({ itemId, versionId }, ctx) =>
      parseSubmittedBundle(
        ctx,
        { itemId, versionId },
        reviewInThread({ timeoutMs: ctx.config.SKILL_REVIEW_TIMEOUT_MS, heapMb: ctx.config.SKILL_REVIEW_HEAP_MB }),
      ),
  },
  { concurrency: 2 },
);
