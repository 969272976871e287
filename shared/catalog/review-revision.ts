// The review revision: an opaque token naming the state a moderator decides on (the item's metadata, the version
// under review and every workflow step so far). The draft detail reads show it (field `reviewRevision` and a strong
// ETag); approve, request changes and reject honour `If-Match` with it, so a decision never lands on content the
// moderator did not see (the publisher could withdraw, edit the same version in place and resubmit meanwhile).
//
// Why this is exact: content can change only outside `in_review` (edits, new versions and bundle uploads need an
// editable state), and leaving and re-entering review each record a transition, so between two looks at an item in
// review any change moves the number of transitions. The timestamps add what moves without a transition (a draft
// edit, the skill-bundle parse), so the token also changes when the publisher's own view does.
import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { catalogTransitions } from '../db/schema/index.js';
import { AppError } from '../errors/app-error.js';
import type { ItemRow, VersionRow } from './item-access.js';

type Stamped = { id: string; updatedAt: Date };

export function reviewRevision(item: Stamped, pending: Stamped | undefined, transitionCount: number): string {
  const basis = [item.id, item.updatedAt.toISOString(), pending?.id ?? '-', pending?.updatedAt.toISOString() ?? '-'];
  const digest = createHash('sha256').update(basis.join('|')).digest('base64url').slice(0, 16);
  return `${transitionCount}-${digest}`;
}

/** What a decision expects: `*` (any state) or the revisions the caller accepts (from `If-Match`). */
export type RevisionPrecondition = '*' | string[];

export const staleReview = (current: string) =>
  new AppError(
    'Review.Stale',
    412,
    'The item changed since you loaded it (the publisher may have edited and resubmitted it); reload to review ' +
      'the current content. Nothing was decided.',
    { headers: { etag: `"${current}"` } },
  );

/** Inside the decision's transaction, after the item row is locked (submit and withdraw take the same lock). */
export async function checkReviewRevision(
  tx: DbExecutor,
  item: ItemRow,
  version: VersionRow,
  expected: RevisionPrecondition | undefined,
): Promise<void> {
  if (expected === undefined || expected === '*') return;
  const [row] = await tx.select({ n: count() }).from(catalogTransitions).where(eq(catalogTransitions.itemId, item.id));
  const current = reviewRevision(item, version, row?.n ?? 0);
  if (!expected.includes(current)) throw staleReview(current);
}
