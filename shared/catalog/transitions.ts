// Records every status change of an item with its actor, time and comment (the audit trail of the review workflow).
import { sql } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { catalogTransitions } from '../db/schema/index.js';
import type { ItemStatus } from './item-types.js';

export type TransitionAction =
  | 'create'
  | 'add_version'
  | 'submit'
  | 'withdraw'
  | 'approve'
  | 'request_changes'
  | 'reject'
  | 'unpublish'
  | 'remove';

export async function recordTransition(
  tx: DbExecutor,
  entry: {
    itemId: string;
    versionId: string | null;
    actorAccountId: string | null;
    action: TransitionAction;
    from: ItemStatus | null;
    to: ItemStatus;
    comment?: string | null;
  },
): Promise<void> {
  await tx.insert(catalogTransitions).values({
    itemId: entry.itemId,
    versionId: entry.versionId,
    actorAccountId: entry.actorAccountId,
    action: entry.action,
    fromStatus: entry.from,
    toStatus: entry.to,
    comment: entry.comment ?? null,
    // The time of the step, not of its transaction: steps taken in one transaction (a publish through the MCP
    // Registry API creates and submits) keep their order.
    createdAt: sql`clock_timestamp()`,
  });
}
