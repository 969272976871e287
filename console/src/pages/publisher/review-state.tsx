// Where a draft stands in review: the bundle parse while a skill waits for it, the parse result, and the
// reviewer's (or the parser's) reasons when it came back, or a moderator's reason for removing it from the hub; and
// every review step so far, which the moderator reads too.
import { formatBytes, formatCountOf, formatTime } from '../../format.js';
import { Notice } from '../../ui/status.js';
import type { DraftDetail, DraftVersion, Transition } from './publisher-api.js';

type BundleFile = { path: string; size: number };

export function ReviewState({ detail, pending }: { detail: DraftDetail; pending: DraftVersion | undefined }) {
  const last = detail.transitions.at(-1);
  // A moderator took it off the hub and nothing happened since: the reason leads the page, not only its history.
  if (last?.action === 'remove' && !detail.isPublished) {
    return (
      <div className="error" role="alert" aria-label="Removed by a moderator">
        <p>
          <strong>Removed from the hub by a moderator</strong> on {formatTime(last.at)}. Add a version and submit it to
          have it reviewed again.
        </p>
        {last.comment ? <pre className="prose">{last.comment}</pre> : null}
      </div>
    );
  }
  if ((detail.status === 'changes_requested' || detail.status === 'rejected') && last?.comment) {
    const decided = detail.status === 'rejected' ? 'Rejected' : 'Changes requested';
    // A bundle uploaded after the decision is what the publisher did about it: the reasons are history now.
    const uploaded = pending?.bundleUploadedAt;
    if (uploaded && Date.parse(uploaded) > Date.parse(last.at)) {
      return (
        <div className="notice" role="note" aria-label="Reviewer's reasons">
          <p>
            <strong>{decided}</strong> on {formatTime(last.at)}; a new bundle was uploaded since, on{' '}
            {formatTime(uploaded)}. Submit version {pending.version} for review again to have it checked.
          </p>
          <p>The reasons given then:</p>
          <pre className="prose">{last.comment}</pre>
        </div>
      );
    }
    return (
      <div className="error" role="alert" aria-label="Reviewer's reasons">
        <p>
          <strong>{decided}:</strong>
        </p>
        <pre className="prose">{last.comment}</pre>
      </div>
    );
  }
  if (detail.type !== 'skill' || !pending || pending.status !== 'in_review') return null;
  const files = pending.bundleFiles as BundleFile[] | null | undefined;
  if (!files) {
    return (
      <p className="muted" role="status">
        The bundle is being parsed…
      </p>
    );
  }
  return (
    <Notice>
      Bundle parsed: {formatCountOf(files.length, 'file')} ({formatBytes(files.reduce((n, f) => n + f.size, 0))}).
      Waiting for a moderator.
    </Notice>
  );
}

/**
 * Who took a step: the name the API gives (a moderator reads every actor's; a publisher only its own), "a moderator"
 * for a moderator's step the publisher reads (which has neither name nor id), "the automatic check" for a bundle sent
 * back by the parse.
 */
export function actorLabel(t: Transition): string | null {
  if (t.actorName) return t.actorName;
  if (t.actedBy === 'moderator') return 'a moderator';
  if (t.actedBy === 'system') return t.action === 'request_changes' ? 'the automatic check' : null;
  return null;
}

/** Every workflow step of an item, oldest first, with who took it and the comment it carried (a note, reasons). */
export function ReviewHistory({ transitions }: { transitions: Transition[] }) {
  return (
    <ol className="timeline" aria-label="Review history">
      {transitions.map((t) => (
        <li key={`${t.at}-${t.action}`}>
          <strong>{t.action.replace(/_/g, ' ')}</strong> → {t.to.replace(/_/g, ' ')}
          {actorLabel(t) ? ` by ${actorLabel(t)}` : ''} <span className="muted">{formatTime(t.at)}</span>
          {t.comment ? <div className="prose muted">{t.comment}</div> : null}
        </li>
      ))}
    </ol>
  );
}
