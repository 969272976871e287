// A new draft of one type, in one of the publisher's namespaces; checked as the API checks it before it is sent.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { api } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { FormError } from '../../ui/status.js';
import { type ItemType, isItemType, typeNames } from '../hub/hub-api.js';
import { MetadataFields, VersionFields } from './draft-form.js';
import {
  apiErrorsOf,
  createBody,
  type DraftState,
  emptyDraft,
  errorFields,
  type FieldErrors,
  liveErrors,
} from './draft-state.js';
import { type Mutation, usePublishers } from './publisher-api.js';

export function NewDraftPage() {
  const { type } = useParams();
  if (!isItemType(type)) return <Navigate to="/publisher" replace />;
  return <NewDraft type={type} />;
}

function NewDraft({ type }: { type: ItemType }) {
  const publishers = usePublishers();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [state, setState] = useState<DraftState>(emptyDraft);
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation({
    mutationFn: ({ body }: { body: unknown; state: DraftState }) =>
      api<Mutation>(apiPath`/api/v1/publisher/${type}/drafts`, { method: 'POST', body }),
    // The API's field errors go where the page's own would, against the rows the body was made of.
    onError: (error, sent) => setErrors(apiErrorsOf(error, sent.state, sent.body)),
    onSuccess: (created) => {
      void client.invalidateQueries({ queryKey: ['mine', type] });
      navigate(`/publisher/${type}/${created.id}`);
    },
  });
  const namespaces = publishers.data ?? [];
  const publisherSlug = state.publisherSlug || namespaces[0]?.slug || '';
  const change = (c: Partial<DraftState>) => setState((s) => ({ ...s, ...c }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = createBody(type, { ...state, publisherSlug });
    setErrors(checked.errors);
    if (Object.keys(checked.errors).length === 0) create.mutate({ body: checked.body, state });
  };
  if (publishers.data && namespaces.length === 0) {
    return (
      <Page title={`New ${typeNames[type]}`}>
        <p>
          Create a publisher namespace first, on <Link to="/publisher">the publisher page</Link>.
        </p>
      </Page>
    );
  }
  const props = { type, state, errors, onChange: change };
  const needed = errorFields(liveErrors(errors, state));
  return (
    <Page title={`New ${typeNames[type]}`}>
      <form className="stack" onSubmit={submit} aria-label="New draft" noValidate>
        <MetadataFields
          {...props}
          namespaces={
            <div className="grid2">
              <Field label="Namespace" error={errors.publisherSlug}>
                {(p) => (
                  <select {...p} value={publisherSlug} onChange={(e) => change({ publisherSlug: e.target.value })}>
                    {namespaces.map((n) => (
                      <option key={n.slug} value={n.slug}>
                        {n.name} ({n.slug})
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Slug" error={errors.slug} hint="Lowercase letters, digits and hyphens; unique per type.">
                {(p) => <input {...p} value={state.slug} onChange={(e) => change({ slug: e.target.value })} />}
              </Field>
            </div>
          }
        />
        <VersionFields {...props} />
        {needed.length > 0 ? (
          <div className="error" role="alert">
            Some fields need a change: {needed.join(', ')}.
          </div>
        ) : null}
        <FormError error={create.error} />
        <div>
          <button type="submit" className="primary" disabled={create.isPending}>
            Create draft
          </button>
        </div>
      </form>
    </Page>
  );
}
