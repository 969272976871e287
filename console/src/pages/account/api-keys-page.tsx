// The account's API keys: create one (its token shown once, with a copy button), disable, enable and delete.
// A key may be bound to a project of the current organization (the key for the gateway /v1 routes).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../api/http.js';
import { formatCount, formatTime } from '../../format.js';
import { useOrganization } from '../../session/organization.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { ShownOnce } from '../../ui/copy-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading, StatusBadge } from '../../ui/status.js';
import { ProjectChooser } from '../organization/project-chooser.js';
import { AccountTabs } from './account-tabs.js';
import { KeyProject } from './key-project.js';

type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  status: 'enabled' | 'disabled';
  projectId?: string;
  createdAt: string;
  lastUsedAt?: string;
  usage: { today: number; total: number };
};

const KEYS = ['api-keys'] as const;

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
      void client.invalidateQueries({ queryKey: KEYS });
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

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const client = useQueryClient();
  const action = useMutation({
    mutationFn: (what: 'enable' | 'disable' | 'delete') =>
      what === 'delete'
        ? api<void>(`/api/v1/api-keys/${apiKey.id}`, { method: 'DELETE' })
        : api<void>(`/api/v1/api-keys/${apiKey.id}/${what}`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS }),
  });
  return (
    <tr>
      <td>{apiKey.name}</td>
      <td>
        <code>{apiKey.prefix}…</code>
      </td>
      <td>
        <StatusBadge status={apiKey.status} />
      </td>
      <td>{apiKey.projectId ? <KeyProject projectId={apiKey.projectId} /> : 'Catalog API'}</td>
      <td className="num">{formatCount(apiKey.usage.today)}</td>
      <td className="num">{formatCount(apiKey.usage.total)}</td>
      <td>{formatTime(apiKey.lastUsedAt)}</td>
      <td>
        <div className="row">
          {apiKey.status === 'enabled' ? (
            <button type="button" onClick={() => action.mutate('disable')} disabled={action.isPending}>
              Disable
            </button>
          ) : (
            <button type="button" onClick={() => action.mutate('enable')} disabled={action.isPending}>
              Enable
            </button>
          )}
          <ConfirmButton label="Delete" confirmLabel="Delete for good" onConfirm={() => action.mutate('delete')} />
        </div>
        <FormError error={action.error} />
      </td>
    </tr>
  );
}

export function ApiKeysPage() {
  const keys = useQuery({ queryKey: KEYS, queryFn: () => api<ApiKey[]>('/api/v1/api-keys') });
  return (
    <Page title="API keys">
      <AccountTabs />
      <CreateKeyForm />
      {keys.isPending ? <Loading /> : null}
      <FormError error={keys.error} />
      <DataTable
        label="API keys"
        columns={[
          'Name',
          'Prefix',
          'Status',
          'Use',
          { label: 'Today', num: true },
          { label: 'Total', num: true },
          'Last used',
          'Actions',
        ]}
        rows={keys.data}
        empty="No API keys yet."
      >
        {(k) => <KeyRow key={k.id} apiKey={k} />}
      </DataTable>
    </Page>
  );
}
