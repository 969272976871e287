// Every API key bound to one project, whoever made it, for those who manage the project (its Owner, an organization
// Admin): holder, name, prefix, status, created, use, last used; revoking one (asked twice) deletes it for good, and
// the gateway refuses it at once. When someone leaves or a key leaks, this is where it is stopped.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, apiData, type Envelope } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatTime } from '../../format.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading, Notice, StatusBadge } from '../../ui/status.js';
import { API_KEYS_QUERY, type ApiKey, KEY_USE_NOTE, KeyUseCells } from '../account/api-key-rows.js';

type ProjectApiKey = Omit<ApiKey, 'projectId'> & { owner: { id: string; name: string; email: string } };

const PAGE_SIZE = 50;

const projectKeysKey = (projectId: string) => ['project-keys', projectId];

function useRevokeKey(projectId: string, organizationId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: ProjectApiKey) =>
      apiData(apiPath`/api/projects/${projectId}/api-keys/${key.id}`, { method: 'DELETE', organizationId }),
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: projectKeysKey(projectId) }),
        // The manager's own key may have been among them.
        client.invalidateQueries({ queryKey: API_KEYS_QUERY }),
      ]),
  });
}

export function ProjectAllKeys({ projectId, organizationId }: { projectId: string; organizationId: string }) {
  const [page, setPage] = useState(1);
  const keys = useQuery({
    queryKey: [...projectKeysKey(projectId), page],
    queryFn: () =>
      api<Envelope<ProjectApiKey[]>>(apiPath`/api/projects/${projectId}/api-keys`, {
        organizationId,
        query: { page, size: PAGE_SIZE },
      }),
    placeholderData: (previous) => previous,
  });
  const revoke = useRevokeKey(projectId, organizationId);
  const revoked = revoke.isSuccess ? revoke.variables : undefined;
  return (
    <section className="panel">
      <h2>API keys of this project</h2>
      <p className="muted">
        Every key made for this project's gateway calls, whoever made it. Revoking a key deletes it: it stops working at
        once. <Link to={`/account/keys?project=${projectId}`}>Make an API key for this project</Link>
      </p>
      <p className="muted">{KEY_USE_NOTE}</p>
      {keys.isPending ? <Loading /> : null}
      <FormError error={keys.error ?? revoke.error} />
      {revoked ? (
        <Notice>
          {revoked.name} ({revoked.owner.email}) was revoked.
        </Notice>
      ) : null}
      <DataTable
        label="API keys of this project"
        columns={[
          'Name',
          'Owner',
          'Prefix',
          'Status',
          'Created',
          { label: 'Today', num: true },
          { label: 'Total', num: true },
          'Last used',
          { label: 'Actions', hidden: true },
        ]}
        rows={keys.data?.data}
        total={keys.data?.total}
        busy={keys.isPlaceholderData}
        empty="Nobody has made a key for this project yet."
      >
        {(k) => (
          <tr key={k.id}>
            <td>{k.name}</td>
            <td className="email">
              {k.owner.name}
              <div className="muted">{k.owner.email}</div>
            </td>
            <td>
              <code>{k.prefix}…</code>
            </td>
            <td>
              <StatusBadge status={k.status} />
            </td>
            <td>{formatTime(k.createdAt)}</td>
            <KeyUseCells apiKey={k} />
            <td>{k.lastUsedAt ? formatTime(k.lastUsedAt) : 'never'}</td>
            <td>
              <ConfirmButton
                label="Revoke"
                confirmLabel={`Revoke ${k.name} for good`}
                disabled={revoke.isPending}
                onConfirm={() => revoke.mutate(k)}
              />
            </td>
          </tr>
        )}
      </DataTable>
      <Pager
        label="API keys of this project: pages"
        page={page}
        pageSize={PAGE_SIZE}
        total={keys.data?.total}
        onPage={setPage}
      />
    </section>
  );
}
