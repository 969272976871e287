// Reviewing one item: the version under review beside the published one (metadata and type-specific fields), and
// the decision: approve, request changes (with reasons) or reject (with a reason). A decision names the review
// revision it was made on (If-Match), so one made on content the publisher has since changed is refused, not applied.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { ApiError, api } from '../../api/http.js';
import { apiPath, isUuid } from '../../api/paths.js';
import { formatCountOf, formatTime } from '../../format.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading, Notice, StatusBadge } from '../../ui/status.js';
import { type ItemDetail, type ItemType, isItemType, useCategories, type VersionDetail } from '../hub/hub-api.js';
import { VersionContents } from '../hub/type-fields.js';
import { type DraftDetail, itemNotFound } from '../publisher/publisher-api.js';
import { ReviewHistory } from '../publisher/review-state.js';
import { BundleFiles } from './bundle-files.js';
import type { Decided, DecidedItem } from './decided-notice.js';
import { ModerationTabs } from './moderation-tabs.js';
import { PublisherRecord } from './publisher-record.js';
import { RemovePanel } from './remove-panel.js';

type Side = {
  title: string;
  meta: { name: string; summary: string; description: string; tags: string[]; iconUrl?: string; categories?: string[] };
  version?: VersionDetail;
  /** What the column says when it has no version. */
  empty: string;
};

function Column({ type, side }: { type: ItemType; side: Side }) {
  const categoryNames = new Map((useCategories(type).data ?? []).map((c) => [c.slug, c.name]));
  return (
    <section className="panel" aria-label={side.title}>
      <h2>{side.title}</h2>
      <dl className="facts">
        <dt>Name</dt>
        <dd>{side.meta.name}</dd>
        <dt>Summary</dt>
        <dd>{side.meta.summary}</dd>
        <dt>Tags</dt>
        <dd>{side.meta.tags.join(', ') || '—'}</dd>
        <dt>Categories</dt>
        <dd>{side.meta.categories?.map((c) => categoryNames.get(c) ?? c).join(', ') || '—'}</dd>
        <dt>Icon</dt>
        <dd>{side.meta.iconUrl ? <code>{side.meta.iconUrl}</code> : '—'}</dd>
      </dl>
      <p className="prose">{side.meta.description}</p>
      {side.version ? (
        <>
          <h3>Version {side.version.version}</h3>
          <VersionContents type={type} version={side.version} withSoulMd reader="reviewer" />
        </>
      ) : (
        <p className="empty">{side.empty}</p>
      )}
    </section>
  );
}

/** The item changed after it was shown (412 Review.Stale): say so plainly and offer the reload. */
function StaleReview({ onReload }: { onReload: () => void }) {
  return (
    <div className="error" role="alert">
      <p>
        This item changed after you opened it: the publisher edited or resubmitted it. Nothing was decided. Reload to
        review what is in review now. <span className="code">(Review.Stale)</span>
      </p>
      <button type="button" onClick={onReload}>
        Reload
      </button>
    </div>
  );
}

type DecisionProps = { type: ItemType; id: string; revision: string; parsing: boolean; item: DecidedItem };

function Decision(props: DecisionProps) {
  const { type, id, revision, parsing, item } = props;
  const client = useQueryClient();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [missing, setMissing] = useState<string>();
  const reasons = useRef<HTMLTextAreaElement>(null);
  const decide = useMutation({
    mutationFn: (action: 'approve' | 'request-changes' | 'reject') => {
      const body =
        action === 'reject'
          ? { reason: text }
          : action === 'request-changes'
            ? { comment: text }
            : text.trim()
              ? { comment: text }
              : {};
      const headers = { 'if-match': `"${revision}"` };
      return api(apiPath`/api/v1/moderation/${type}/${id}/${action}`, { method: 'POST', body, headers });
    },
    onSuccess: (_, action) => {
      void client.invalidateQueries({ queryKey: ['queue'] });
      // The queue says what was decided (and where an approved item now is): without it the item just vanished.
      const decided: Decided = { ...item, action };
      navigate('/moderation', { state: { decided } });
    },
  });
  const act = (action: 'approve' | 'request-changes' | 'reject') => {
    if (action !== 'approve' && !text.trim()) {
      setMissing(action === 'reject' ? 'A rejection needs a reason.' : 'Say what should change.');
      // The field, now invalid and described by the message, takes the focus: a screen reader reads both.
      reasons.current?.focus();
      return;
    }
    setMissing(undefined);
    decide.mutate(action);
  };
  return (
    <section className="panel stack" aria-label="Decision">
      <h2>Decision</h2>
      <Field
        label="Comment or reasons"
        hint="Required to request changes or to reject; the publisher reads it."
        error={missing}
      >
        {(p) => <textarea {...p} ref={reasons} rows={3} value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
      {decide.error instanceof ApiError && decide.error.code === 'Review.Stale' ? (
        <StaleReview
          onReload={() => {
            decide.reset();
            void client.invalidateQueries({ queryKey: ['review', type, id] });
          }}
        />
      ) : (
        <FormError error={decide.error} />
      )}
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={() => act('approve')}
          disabled={decide.isPending || parsing}
          aria-describedby={parsing ? 'bundle-parsing' : undefined}
        >
          Approve
        </button>
        <button type="button" onClick={() => act('request-changes')} disabled={decide.isPending}>
          Request changes
        </button>
        <button type="button" className="danger" onClick={() => act('reject')} disabled={decide.isPending}>
          Reject
        </button>
      </div>
    </section>
  );
}

/** A skill in review whose bundle the worker has not parsed yet: what would be approved is not known. */
const parsingBundle = (d: DraftDetail | undefined) =>
  d?.type === 'skill' && d.status === 'in_review' && d.versions.some((v) => v.status === 'in_review' && !v.bundleFiles);

export function ReviewPage() {
  const { type, id } = useParams();
  if (!isItemType(type) || !id) return <Navigate to="/moderation" replace />;
  return <Review type={type} id={id} />;
}

function Review({ type, id }: { type: ItemType; id: string }) {
  // The name of the item this page just removed from the hub: the page stays, and says what happened.
  const [removed, setRemoved] = useState<{ name: string; reportsResolved: number }>();
  const detail = useQuery({
    queryKey: ['review', type, id],
    queryFn: () =>
      isUuid(id) ? api<DraftDetail>(apiPath`/api/v1/moderation/${type}/${id}`) : Promise.reject(itemNotFound(type)),
    // A skill's bundle is parsed after the submit: look again every 1.5 s until its files (or a verdict) arrive.
    refetchInterval: (query) => (parsingBundle(query.state.data) ? 1500 : false),
  });
  const published = useQuery({
    queryKey: ['item', type, detail.data?.slug],
    queryFn: () => api<ItemDetail>(apiPath`/api/v1/${type}/${detail.data?.slug ?? ''}`),
    enabled: Boolean(detail.data?.isPublished),
  });
  if (detail.isPending) return <Loading />;
  if (!detail.data) return <FormError error={detail.error} />;
  const d = detail.data;
  const underReview = d.versions.find((v) => v.status === 'in_review');
  const current = d.versions.find((v) => v.isCurrent);
  const pub = published.data;
  const withdrawals = d.transitions.filter((t) => t.action === 'withdraw' && t.versionId === underReview?.id);
  const note = d.transitions.findLast((t) => t.action === 'submit' && t.versionId === underReview?.id)?.comment;
  return (
    <Page title={`Review: ${d.name}`}>
      <ModerationTabs />
      <p>
        <StatusBadge status={d.status} /> by {d.publisherName} · <code>{d.slug}</code>
        {d.isPublished ? (
          <>
            {' · '}
            <Link to={`/hub/${type}/${d.slug}`}>public page</Link>
          </>
        ) : null}
        {underReview?.submittedAt ? ` · submitted ${formatTime(underReview.submittedAt)}` : ''}
      </p>
      {removed ? (
        <Notice>
          Removed {removed.name} from the hub: its public page and search no longer show it, and its publisher reads
          your reason in its history.
          {removed.reportsResolved > 0
            ? ` ${formatCountOf(removed.reportsResolved, 'open report')} resolved with that reason.`
            : ''}
        </Notice>
      ) : null}
      {underReview && withdrawals.length > 0 ? (
        <Notice>
          Resubmitted: the publisher withdrew this version{' '}
          {withdrawals.length === 1 ? 'once' : `${withdrawals.length} times`} (last{' '}
          {formatTime(withdrawals[withdrawals.length - 1]?.at ?? '')}) and submitted it again; its content may differ
          from an earlier look.
        </Notice>
      ) : null}
      {parsingBundle(d) ? (
        <p className="muted" role="status" id="bundle-parsing">
          The bundle is being parsed: its files appear here, and it can be approved, once the check is done.
        </p>
      ) : null}
      {underReview && note ? (
        <section className="panel" aria-label="Note from the publisher">
          <h2>Note from the publisher</h2>
          <pre className="prose">{note}</pre>
        </section>
      ) : null}
      <div className="side-by-side">
        <Column
          type={type}
          side={{
            title: underReview ? `Under review: ${underReview.version}` : 'Not in review',
            meta: d,
            ...(underReview ? { version: underReview } : {}),
            empty: 'No version is waiting for review.',
          }}
        />
        <Column
          type={type}
          side={{
            title: current ? `Published: ${current.version}` : 'Published',
            // Only while public: after a removal the cached public page would still show the old metadata.
            meta: (d.isPublished ? pub : undefined) ?? { name: '—', summary: '—', description: '', tags: [] },
            ...(current ? { version: current } : {}),
            // A version published once but not now: the item was unpublished or removed (its history says which).
            empty: d.versions.some((v) => v.publishedAt)
              ? 'Not on the hub now: taken off after it was published (see the history).'
              : 'Nothing published yet.',
          }}
        />
      </div>
      {type === 'skill' && underReview ? <BundleFiles skillId={id} version={underReview} /> : null}
      <PublisherRecord itemId={id} publisherSlug={d.publisherSlug} publisherName={d.publisherName} />
      {d.status === 'in_review' ? (
        <Decision
          type={type}
          id={id}
          revision={d.reviewRevision}
          parsing={parsingBundle(d)}
          item={{ type, name: d.name, slug: d.slug, version: underReview?.version }}
        />
      ) : (
        <p className="muted">Not waiting for a decision.</p>
      )}
      {d.isPublished ? (
        <RemovePanel
          type={type}
          id={id}
          name={d.name}
          onRemoved={(name, reportsResolved) => setRemoved({ name, reportsResolved })}
        />
      ) : null}
      <section className="panel">
        <h2>History</h2>
        <ReviewHistory transitions={d.transitions} />
      </section>
    </Page>
  );
}
