// Where a publisher's item stands, as badges. The item's status follows its review workflow, so a published item
// whose new version is being drafted or reviewed has the status `draft` or `in_review` while the earlier version
// stays public (docs/catalog.md, "Visibility"): both facts are shown, "published" and "draft v1.1.0".
import { StatusBadge } from '../../ui/status.js';

type Props = {
  status: string;
  isPublished: boolean;
  /** The version being worked on: the newest one not published yet. */
  pending?: { version: string } | undefined;
};

export function ItemStatus({ status, isPublished, pending }: Props) {
  // A draft with no version being worked on has only published (or superseded) versions: it was public and was
  // unpublished by its publisher or removed by a moderator, so "draft" would misname it.
  if (!isPublished && status === 'draft' && !pending) return <StatusBadge status="draft" label="unpublished" />;
  if (!isPublished || status === 'published') return <StatusBadge status={status} />;
  const words = status.replace(/_/g, ' ');
  return (
    <>
      <StatusBadge status="published" />{' '}
      <StatusBadge status={status} label={pending ? `${words} v${pending.version}` : `new version ${words}`} />
    </>
  );
}
