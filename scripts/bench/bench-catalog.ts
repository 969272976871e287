// Catalog items for benchmarks, published the way the API publishes them (draft, submit, approve).
import { createDraft } from '../../shared/catalog/drafts.js';
import { decideReview, submitForReview } from '../../shared/catalog/review-workflow.js';
import type { AppContext } from '../../shared/context.js';

/** An approved agent with one version, published by `adminId` under `publisherSlug`; its item id. */
export async function publishBenchAgent(
  ctx: AppContext,
  adminId: string,
  publisherSlug: string,
  agent: { slug: string; name: string },
): Promise<string> {
  const draft = await createDraft(ctx, 'agent', adminId, {
    ...agent,
    summary: 'x',
    description: 'x',
    publisherSlug,
    version: { version: '1.0.0' },
  });
  await submitForReview(ctx, 'agent', adminId, draft.id);
  await decideReview(ctx, 'agent', adminId, draft.id, 'approve');
  return draft.id;
}
