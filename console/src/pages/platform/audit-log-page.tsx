// The whole audit log, newest first, for platform Admins: who changed what, with which credential, from where, and
// the values before and after; filtered by action. Read-only, as the log is (docs/operations.md, "Audit log").
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { auditActions } from '../../../../shared/audit/audit-actions.js';
import { api, type CatalogPage } from '../../api/http.js';
import { formatCount, formatTime } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading } from '../../ui/status.js';
import { PlatformTabs } from './platform-tabs.js';

type AuditEntry = {
  id: string;
  occurredAt: string;
  action: string;
  organizationId?: string;
  actor: { accountId?: string; credential: { kind: string; id?: string } };
  target: { type: string; id: string };
  before?: unknown;
  after?: unknown;
  clientAddress?: string;
};

const PAGE_SIZE = 25;
const compact = (value: unknown) => (value === undefined ? '' : JSON.stringify(value));

// `invite`: an account made by accepting an invite link, which was its only credential then.
const credentialNames: Record<string, string> = { 'api-key': 'API key', session: 'session', invite: 'invite link' };

function Actor({ actor }: { actor: AuditEntry['actor'] }) {
  if (actor.credential.kind === 'system') return <>system</>;
  return (
    <>
      <code>{actor.accountId ?? '—'}</code>
      <div className="muted">by {credentialNames[actor.credential.kind] ?? actor.credential.kind}</div>
    </>
  );
}

export function AuditLogPage() {
  const [action, setAction] = useState('');
  const [page, setPage] = useState(1);
  const entries = useQuery({
    queryKey: ['admin-audit-log', action, page],
    queryFn: () =>
      api<CatalogPage<AuditEntry> & { totalExact?: boolean }>('/api/v1/admin/audit-log', {
        query: { page, pageSize: PAGE_SIZE, ...(action ? { action } : {}) },
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Audit log">
      <PlatformTabs />
      <label className="row">
        Action
        <select
          value={action}
          onChange={(e) => {
            setAction(e.target.value);
            setPage(1);
          }}
        >
          <option value="">Any</option>
          {auditActions.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </label>
      {entries.isPending ? <Loading /> : null}
      <FormError error={entries.error} />
      <DataTable
        label="Audit log"
        columns={['When', 'Action', 'Actor', 'Target', 'Change', 'Address']}
        rows={entries.data?.items}
        busy={entries.isPlaceholderData}
        empty={action ? `No ${action} entries.` : 'No entries yet.'}
      >
        {(e) => (
          <tr key={e.id}>
            <td>{formatTime(e.occurredAt)}</td>
            <td>{e.action}</td>
            <td>
              <Actor actor={e.actor} />
            </td>
            <td>
              {e.target.type}
              <div className="muted">
                <code>{e.target.id}</code>
              </div>
            </td>
            <td>
              {e.before !== undefined ? <div className="muted">before: {compact(e.before)}</div> : null}
              {e.after !== undefined ? <div>after: {compact(e.after)}</div> : null}
            </td>
            <td>{e.clientAddress ?? ''}</td>
          </tr>
        )}
      </DataTable>
      {entries.data ? (
        <Pager
          page={entries.data.page}
          pageSize={entries.data.pageSize}
          total={entries.data.total}
          // Past 10,000 entries after the page the API counts no further: the total is a lower bound.
          totalOf={entries.data.totalExact === false ? `at least ${formatCount(entries.data.total)}` : undefined}
          onPage={setPage}
        />
      ) : null}
    </Page>
  );
}
