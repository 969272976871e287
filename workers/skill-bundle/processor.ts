// skill-bundle/parse: reviews the submitted version's bundle in a worker thread and records the verdict.
import { parseSubmittedBundle } from '../../shared/catalog/skill-bundle-parse.js';
import { isDeferred, TENANT_SHARE_PAUSE_MS } from '../../shared/queues/tenant-share.js';
import { deferJob, defineQueueWorker } from '../processor.js';
import { reviewInThread } from './review-in-thread.js';

export default defineQueueWorker(
  'skill-bundle',
  {
    parse: async ({ itemId, versionId, submittedAt }, ctx, job, token) => {
      const outcome = await parseSubmittedBundle(
        ctx,
        { itemId, versionId, ...(submittedAt ? { submittedAt } : {}) },
        reviewInThread({ timeoutMs: ctx.config.SKILL_REVIEW_TIMEOUT_MS, heapMb: ctx.config.SKILL_REVIEW_HEAP_MB }),
      );
      // The publishing account has its share of reviews running: this one waits in the delayed set.
      return isDeferred(outcome) ? deferJob(job, token, TENANT_SHARE_PAUSE_MS) : outcome;
    },
  },
  { concurrency: 2 },
);
