// What the review queue says after a decision: the item and version decided, and for an approval a link to its
// public page (the review page navigates back to the queue, where the item is no longer listed).
import { Link, useLocation } from 'react-router';
import { Notice } from '../../ui/status.js';
import type { ItemType } from '../hub/hub-api.js';

export type DecidedItem = { type: ItemType; name: string; slug: string; version: string | undefined };
export type Decided = DecidedItem & { action: 'approve' | 'request-changes' | 'reject' };

export function DecidedNotice() {
  const decided = (useLocation().state as { decided?: Decided } | null)?.decided;
  if (!decided) return null;
  const what = decided.version ? `${decided.name} ${decided.version}` : decided.name;
  if (decided.action === 'approve') {
    return (
      <Notice>
        Approved {what}: it is published on the hub, <Link to={`/hub/${decided.type}/${decided.slug}`}>its page</Link>.
      </Notice>
    );
  }
  if (decided.action === 'request-changes') {
    return <Notice>Asked for changes to {what}: it is back with its publisher, with your comment.</Notice>;
  }
  return <Notice>Rejected {what}: its publisher reads your reason.</Notice>;
}
