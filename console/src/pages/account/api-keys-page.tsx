// The account's API keys: create one (its token shown once, with a copy button), disable, enable and delete.
// A key may be bound to a project of the current organization (the key for the gateway /v1 routes).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../api/http.js';
import { useOrganization } from '../../session/organization.js';
import { ShownOnce } from '../../ui/copy-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading } from '../../ui/status.js';
import { ProjectChooser } from '../organization/project-chooser.js';
import { AccountTabs } from './account-tabs.js';
import { API_KEYS_QUERY, type ApiKey, KEY_USE_NOTE, KeyRow, keyColumns, useApiKeys } from './api-key-rows.js';

function CreateKeyForm() {
  const client = useQueryClient();
  const { current } = useOrganization();
  const [name, setName] = useState('');
  // `?project=` (the project page's "make an API key" link) starts the form on that project.
  const [params] = useSearchParams();
  const [projectId, setProjectId] = useState(params.get('project') ?? '');
  const create = useMutation({
    mutationFn: () =>
      api<ApiKey & { token: string }>('/api/v1/api-keys', {
        method: 'POST',
        body: { name, ...(projectId ? { projectId } : {}) },
      }),
    onSuccess: () => {
      setName('');
      void client.invalidateQueries({ queryKey: API_KEYS_QUERY });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate();
  };
  return (
    <>
      <form className="row" onSubmit={submit} aria-label="Create an API key">
        <Field label="Key name">{(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
        {current ? (
          <ProjectChooser
            organizationId={current.id}
            label="Project (for the gateway)"
            none="No project (catalog API)"
            mine={current.role !== 'Admin'}
            value={projectId}
            onChange={setProjectId}
          />
        ) : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create key
        </button>
      </form>
      <FormError error={create.error} />
      {create.data ? (
        <ShownOnce label={`API key "${create.data.name}"`} value={create.data.token} onDone={() => create.reset()} />
      ) : null}
    </>
  );
}

export function ApiKeysPage() {
  const keys = useApiKeys();
  return (
    <Page title="API keys">
      <AccountTabs />
      <CreateKeyForm />
      {keys.isPending ? <Loading /> : null}
      <FormError error={keys.error} />
      <p className="muted">{KEY_USE_NOTE}</p>
      <DataTable label="API keys" columns={keyColumns(true)} rows={keys.data} empty="No API keys yet.">
        {(k) => <KeyRow key={k.id} apiKey={k} withProject />}
      </DataTable>
    </Page>
  );
}
