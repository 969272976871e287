// The account's API keys as table rows (name, prefix, status, created, use, last used; disable, enable, delete), on
// the API keys page and, for the keys bound to one project, on that project's page.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCount, formatMoney, formatTime } from '../../format.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import type { Column } from '../../ui/data-table.js';
import { FormError, StatusBadge } from '../../ui/status.js';
import { KeyProject } from './key-project.js';

export type ApiKey = {
  id: string;
  name: string;
  prefix: string;
  status: 'enabled' | 'disabled';
  projectId?: string;
  createdAt: string;
  lastUsedAt?: string;
  /** Catalog (`/api/v1`) calls. */
  usage: { today: number; total: number };
  /** A project key's gateway (`/v1`) requests, from the request logs, and what they took from the wallet. */
  gatewayUsage?: { today: number; total: number; spentToday: number; spentTotal: number };
};

export const API_KEYS_QUERY = ['api-keys'] as const;

/** The signed-in account's own keys: the API lists no other account's. */
export const useApiKeys = () =>
  useQuery({ queryKey: API_KEYS_QUERY, queryFn: () => api<ApiKey[]>('/api/v1/api-keys') });

/** The key table's headings; `withProject` adds the column naming what the key is for. */
export const keyColumns = (withProject: boolean): Column[] => [
  'Name',
  'Prefix',
  'Status',
  ...(withProject ? ['Use'] : []),
  'Created',
  { label: 'Today', num: true },
  { label: 'Total', num: true },
  'Last used',
  { label: 'Actions', hidden: true },
];

/**
 * A key's Today and Total cells: a project key's gateway requests (what its project's quota counts) and what they took
 * from the wallet, an account key's catalog API calls, each labelled so; a project key's catalog calls are added when
 * it made any.
 */
export function KeyUseCells({ apiKey }: { apiKey: Pick<ApiKey, 'usage' | 'gatewayUsage'> }) {
  const cell = (pick: 'today' | 'total') => {
    const gateway = apiKey.gatewayUsage;
    const catalog = apiKey.usage[pick];
    return (
      <td className="num">
        {formatCount(gateway ? gateway[pick] : catalog)}{' '}
        <span className="muted">{gateway ? 'gateway' : 'catalog'}</span>
        {gateway ? <div>{formatMoney(pick === 'today' ? gateway.spentToday : gateway.spentTotal)}</div> : null}
        {gateway && catalog > 0 ? <div className="muted">+ {formatCount(catalog)} catalog</div> : null}
      </td>
    );
  };
  return (
    <>
      {cell('today')}
      {cell('total')}
    </>
  );
}

/** What the Today and Total columns count, said once above a key table. */
export const KEY_USE_NOTE =
  "Today (UTC) and Total count a project key's gateway requests, with what they took from the wallet, and an account " +
  "key's catalog API calls. A gateway request shows here within a second or so of its end, once the ledger has " +
  'written it.';

export function KeyRow({ apiKey, withProject }: { apiKey: ApiKey; withProject: boolean }) {
  const client = useQueryClient();
  const action = useMutation({
    mutationFn: (what: 'enable' | 'disable' | 'delete') =>
      what === 'delete'
        ? api<void>(apiPath`/api/v1/api-keys/${apiKey.id}`, { method: 'DELETE' })
        : api<void>(apiPath`/api/v1/api-keys/${apiKey.id}/${what}`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: API_KEYS_QUERY }),
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
      {withProject ? <td>{apiKey.projectId ? <KeyProject projectId={apiKey.projectId} /> : 'Catalog API'}</td> : null}
      <td>{formatTime(apiKey.createdAt)}</td>
      <KeyUseCells apiKey={apiKey} />
      <td>{apiKey.lastUsedAt ? formatTime(apiKey.lastUsedAt) : 'never'}</td>
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
