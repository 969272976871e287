// One of the publisher's items: where it stands, its fields (editable while a draft or sent back), the skill
// bundle upload, submit and withdraw, a new version once published, every version and every review step.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { api } from '../../api/http.js';
import { apiPath, isUuid } from '../../api/paths.js';
import { formatTime } from '../../format.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { ItemStats } from '../../ui/item-stats.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading, Notice, StatusBadge } from '../../ui/status.js';
import { type ItemType, isItemType } from '../hub/hub-api.js';
import { VersionContents } from '../hub/type-fields.js';
import { BundleFiles } from '../moderation/bundle-files.js';
import { BundleUpload } from './bundle-upload.js';
import { MetadataFields, VersionFields } from './draft-form.js';
import {
  apiErrorsOf,
  type DraftState,
  type FieldErrors,
  patchBody,
  stateFromDraft,
  versionBody,
} from './draft-state.js';
import { ItemStatus } from './item-status.js';
import { type DraftDetail, type DraftVersion, itemNotFound, type Mutation, pendingVersionOf } from './publisher-api.js';
import { ReviewHistory, ReviewState } from './review-state.js';

const editable = ['draft', 'changes_requested', 'rejected'];

export function DraftPage() {
  const { type, id } = useParams();
  if (!isItemType(type) || !id) return <Navigate to="/publisher" replace />;
  return <Draft type={type} id={id} />;
}

function useDraft(type: ItemType, id: string) {
  return useQuery({
    queryKey: ['draft', type, id],
    queryFn: () =>
      isUuid(id) ? api<DraftDetail>(apiPath`/api/v1/publisher/${type}/${id}`) : Promise.reject(itemNotFound(type)),
    // While a skill's bundle is being parsed, look again every 1.5 s until the parse result or the reasons arrive.
    refetchInterval: (query) => {
      const d = query.state.data;
      const pending = d ? pendingVersionOf(d) : undefined;
      return d?.type === 'skill' && pending?.status === 'in_review' && !pending.bundleFiles ? 1500 : false;
    },
  });
}

function EditForm(props: {
  type: ItemType;
  detail: DraftDetail;
  onSaved: () => void;
  /** Whether the form holds changes not saved yet (a submit sends the version as saved, not as shown). */
  onUnsaved: (unsaved: boolean) => void;
}) {
  const { type, detail, onSaved, onUnsaved } = props;
  const pending = pendingVersionOf(detail);
  const [state, setState] = useState<DraftState>(() => stateFromDraft(detail, pending));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: ({ body }: { body: unknown; state: DraftState }) =>
      api<Mutation>(apiPath`/api/v1/publisher/${type}/${detail.id}/draft`, { method: 'PUT', body }),
    onError: (error, sent) => setErrors(apiErrorsOf(error, sent.state, sent.body)),
    onSuccess: () => {
      onUnsaved(false);
      onSaved();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = patchBody(type, state);
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length === 0) save.mutate({ body: checked.body, state });
  };
  const change = (c: Partial<DraftState>) => {
    setState((s) => ({ ...s, ...c }));
    save.reset();
    onUnsaved(true);
  };
  const fields = { type, state, errors, onChange: change };
  return (
    <form className="stack panel" onSubmit={submit} aria-label="Edit the draft" noValidate>
      <h2>Edit</h2>
      <MetadataFields {...fields} />
      {pending ? <VersionFields {...fields} /> : null}
      <FormError error={save.error} />
      {save.isSuccess ? <Notice>Saved.</Notice> : null}
      <div>
        <button type="submit" disabled={save.isPending}>
          Save changes
        </button>
      </div>
    </form>
  );
}

/** A new version starts from the current one's fields (readme, license, connections, SOUL.md…), with no number. */
function NewVersionForm({ type, detail, onAdded }: { type: ItemType; detail: DraftDetail; onAdded: () => void }) {
  const id = detail.id;
  const [state, setState] = useState<DraftState>(() => ({
    ...stateFromDraft(
      detail,
      detail.versions.find((v) => v.isCurrent),
    ),
    changelog: '',
    version: '',
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const add = useMutation({
    mutationFn: ({ body }: { body: unknown; state: DraftState }) =>
      api<Mutation>(apiPath`/api/v1/publisher/${type}/${id}/versions`, { method: 'POST', body }),
    onError: (error, sent) => setErrors(apiErrorsOf(error, sent.state, sent.body)),
    onSuccess: onAdded,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = versionBody(type, state);
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length === 0) add.mutate({ body: checked.body, state });
  };
  return (
    <form className="stack panel" onSubmit={submit} aria-label="Add a version" noValidate>
      <h2>Add a version</h2>
      <VersionFields type={type} state={state} errors={errors} onChange={(c) => setState((s) => ({ ...s, ...c }))} />
      <FormError error={add.error} />
      <div>
        <button type="submit" disabled={add.isPending}>
          Add version
        </button>
      </div>
    </form>
  );
}

function ReviewActions(props: { type: ItemType; detail: DraftDetail; unsaved: boolean; onDone: () => void }) {
  const { type, detail, unsaved, onDone } = props;
  const [comment, setComment] = useState('');
  const act = useMutation({
    mutationFn: (what: 'submit-review' | 'withdraw') =>
      api<Mutation>(apiPath`/api/v1/publisher/${type}/${detail.id}/${what}`, {
        method: 'POST',
        body: what === 'submit-review' && comment.trim() ? { comment } : {},
      }),
    onSuccess: onDone,
  });
  const pending = pendingVersionOf(detail);
  return (
    <section className="panel stack" aria-label="Review">
      <h2>Review</h2>
      {pending && editable.includes(pending.status) ? (
        <>
          <Field label="Note for the moderator (optional)">
            {(p) => <textarea {...p} rows={2} value={comment} onChange={(e) => setComment(e.target.value)} />}
          </Field>
          {unsaved ? (
            <p className="hint" id="unsaved-edits">
              Save your changes first: a version is submitted as it was last saved.
            </p>
          ) : null}
          <div>
            <button
              type="button"
              className="primary"
              onClick={() => act.mutate('submit-review')}
              disabled={act.isPending || unsaved}
              aria-describedby={unsaved ? 'unsaved-edits' : undefined}
            >
              Submit version {pending.version} for review
            </button>
          </div>
        </>
      ) : null}
      {detail.status === 'in_review' ? (
        <div>
          <button type="button" onClick={() => act.mutate('withdraw')} disabled={act.isPending}>
            Withdraw from review
          </button>
        </div>
      ) : null}
      {!pending ? <p className="muted">Nothing is waiting: add a version to start a new review.</p> : null}
      <FormError error={act.error} />
    </section>
  );
}

/** A button that asks twice, then runs the action, and the action's error under it. */
function ConfirmAction(props: {
  label: string;
  confirmLabel: string;
  action: { isPending: boolean; error: Error | null; mutate: () => void };
}) {
  const { label, confirmLabel, action } = props;
  return (
    <>
      <div>
        <ConfirmButton
          label={label}
          confirmLabel={confirmLabel}
          disabled={action.isPending}
          onConfirm={() => action.mutate()}
        />
      </div>
      <FormError error={action.error} />
    </>
  );
}

/** An item never in the public catalog, not in review: its owner may delete it (and its versions and bundles). */
function DeleteDraft({ type, detail }: { type: ItemType; detail: DraftDetail }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => api<{ deleted: true }>(apiPath`/api/v1/publisher/${type}/${detail.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['mine', type] });
      void navigate('/publisher');
    },
  });
  return (
    <section className="panel stack" aria-label="Delete">
      <h2>Delete</h2>
      <p className="muted">
        It was never published: deleting removes it with every version and bundle, and frees its slug.
      </p>
      <ConfirmAction label="Delete this draft" confirmLabel="Delete for good" action={remove} />
    </section>
  );
}

/** A published item: its owner may take it off the hub (POST …/unpublish); approving a later version brings it back. */
function Unpublish({ type, detail, onDone }: { type: ItemType; detail: DraftDetail; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const unpublish = useMutation({
    mutationFn: () =>
      api<Mutation>(apiPath`/api/v1/publisher/${type}/${detail.id}/unpublish`, {
        method: 'POST',
        body: reason.trim() ? { reason } : {},
      }),
    onSuccess: onDone,
  });
  return (
    <section className="panel stack" aria-label="Unpublish">
      <h2>Unpublish</h2>
      <p className="muted">
        Takes it off the hub, its search and the MCP Registry API. Its versions, ratings and counts stay; submit a new
        version to bring it back.
      </p>
      <Field label="Reason (optional)">
        {(p) => <textarea {...p} rows={2} value={reason} onChange={(e) => setReason(e.target.value)} />}
      </Field>
      <ConfirmAction label="Unpublish" confirmLabel="Take it off the hub" action={unpublish} />
    </section>
  );
}

/** The item as it stands while it cannot be edited (in review, or published with nothing pending). */
function ReadOnly({ detail, version }: { detail: DraftDetail; version: DraftVersion | undefined }) {
  return (
    <section className="panel">
      <h2>{version ? `Version ${version.version}` : 'The item'}</h2>
      <p>{detail.summary}</p>
      <p className="prose muted">{detail.description}</p>
      {version ? <VersionContents type={detail.type} version={version} withSoulMd /> : null}
    </section>
  );
}

function Versions({ detail }: { detail: DraftDetail }) {
  return (
    <section className="panel">
      <h2>Versions</h2>
      <DataTable
        label="Versions"
        columns={['Version', 'Status', 'Submitted', 'Published', ...(detail.type === 'skill' ? ['Bundle'] : [])]}
        rows={detail.versions}
        empty="No versions yet."
      >
        {(v) => (
          <tr key={v.id}>
            <td>
              {v.version} {v.isCurrent ? <span className="badge badge-published">current</span> : null}
            </td>
            <td>
              <StatusBadge status={v.status} />
            </td>
            <td>{formatTime(v.submittedAt)}</td>
            <td>{formatTime(v.publishedAt)}</td>
            {detail.type === 'skill' ? <td>{v.hasBundle ? 'uploaded' : 'none'}</td> : null}
          </tr>
        )}
      </DataTable>
      <h3>History</h3>
      <ReviewHistory transitions={detail.transitions} />
    </section>
  );
}

function Draft({ type, id }: { type: ItemType; id: string }) {
  const client = useQueryClient();
  const draft = useDraft(type, id);
  const [formKey, setFormKey] = useState(0);
  const [unsaved, setUnsaved] = useState(false);
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['draft', type, id] });
    void client.invalidateQueries({ queryKey: ['mine', type] });
  };
  // Forms start again from the stored draft when it changes state (submitted, sent back, a version added); not when
  // it first arrives, which the forms start from already (starting them again then, after the first paint, could
  // throw away what a quick hand had typed).
  const status = draft.data?.status;
  const versionCount = draft.data?.versions.length;
  const seen = useRef<{ status?: string; versionCount?: number }>({});
  useEffect(() => {
    const before = seen.current;
    seen.current = { ...(status ? { status } : {}), ...(versionCount !== undefined ? { versionCount } : {}) };
    if (before.status === undefined) return;
    if (before.status !== status || before.versionCount !== versionCount) {
      setFormKey((k) => k + 1);
      setUnsaved(false);
    }
  }, [status, versionCount]);
  if (draft.isPending) return <Loading />;
  if (!draft.data) return <FormError error={draft.error} />;
  const detail = draft.data;
  const pending = pendingVersionOf(detail);
  // The version in the works, else the published one: the bundle whose files its publisher may read here.
  const shownVersion = pending ?? detail.versions.find((v) => v.isCurrent);
  return (
    <Page title={detail.name}>
      <p>
        <ItemStatus status={detail.status} isPublished={detail.isPublished} pending={pending} />{' '}
        <code>{detail.slug}</code> in <code>{detail.publisherSlug}</code>
        {detail.isPublished ? (
          <>
            {' · '}
            <Link to={`/hub/${type}/${detail.slug}`}>public page</Link>
          </>
        ) : null}
      </p>
      <ReviewState detail={detail} pending={pending} />
      {detail.stats && (detail.isPublished || detail.versions.some((v) => v.publishedAt)) ? (
        <section className="panel" aria-label="How it does">
          <h2>Counts</h2>
          <ItemStats stats={detail.stats} />
        </section>
      ) : null}
      {/* The review actions come first: on a phone (one column) they are above the long form, where a publisher
          looks for them; on a wide screen the grid places them at the top of the right column (docs/console.md). */}
      <div className="draft-layout">
        <div className="draft-actions">
          <ReviewActions type={type} detail={detail} unsaved={unsaved} onDone={refresh} />
        </div>
        <div className="draft-main">
          {editable.includes(detail.status) ? (
            <EditForm key={`edit-${formKey}`} type={type} detail={detail} onSaved={refresh} onUnsaved={setUnsaved} />
          ) : null}
          {type === 'skill' && pending && editable.includes(pending.status) ? (
            <section className="panel">
              <BundleUpload skillId={detail.id} versionId={pending.id} version={pending.version} onUploaded={refresh} />
            </section>
          ) : null}
          {!editable.includes(detail.status) ? (
            <ReadOnly detail={detail} version={pending ?? detail.versions.find((v) => v.isCurrent)} />
          ) : null}
          {type === 'skill' && shownVersion ? (
            <BundleFiles reader="owner" skillId={detail.id} version={shownVersion} />
          ) : null}
          {!pending ? <NewVersionForm key={`new-${formKey}`} type={type} detail={detail} onAdded={refresh} /> : null}
          <Versions detail={detail} />
        </div>
        {editable.includes(detail.status) && detail.versions.every((v) => !v.publishedAt && !v.isCurrent) ? (
          <aside className="draft-side">
            <DeleteDraft type={type} detail={detail} />
          </aside>
        ) : null}
        {detail.isPublished ? (
          <aside className="draft-side">
            <Unpublish type={type} detail={detail} onDone={refresh} />
          </aside>
        ) : null}
      </div>
    </Page>
  );
}
