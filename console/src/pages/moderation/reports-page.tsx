// Reports about items: open ones first, each with its item and reason, and resolving one with a note. An item's
// name opens its moderation page (status, history, and removing it from the hub), which works whether or not it is
// still public; a removed item's hub page would only say "not found".
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, type CatalogPage } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatTime } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading, StatusBadge } from '../../ui/status.js';
import { type ItemType, typeNames } from '../hub/hub-api.js';
import { ModerationTabs } from './moderation-tabs.js';

type Report = {
  id: string;
  status: 'open' | 'resolved';
  reason: string;
  detail?: string;
  itemId: string;
  itemType?: ItemType;
  itemSlug?: string;
  itemName?: string;
  resolution?: string;
  resolvedAt?: string;
  createdAt: string;
};

/** Resolves one report with a note; with `others` open reports of its item on the page, offers to resolve them too. */
function Resolve({ report, others }: { report: Report; others: number }) {
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const [sameItem, setSameItem] = useState(false);
  const resolve = useMutation({
    mutationFn: () =>
      api(apiPath`/api/v1/moderation/reports/${report.id}/resolve`, {
        method: 'POST',
        body: { ...(note.trim() ? { resolution: note } : {}), ...(sameItem && others > 0 ? { sameItem: true } : {}) },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['reports'] }),
  });
  return (
    <div className="stack">
      <div className="row">
        <input
          aria-label={`Resolution of report ${report.id.slice(0, 8)}`}
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder="Resolution note"
        />
        <button type="button" onClick={() => resolve.mutate()} disabled={resolve.isPending}>
          Resolve
        </button>
      </div>
      {others > 0 ? (
        <label className="row">
          <input type="checkbox" checked={sameItem} onChange={(e) => setSameItem(e.target.checked)} />
          Also resolve this item's other open reports ({others}), with the same note
        </label>
      ) : null}
      <FormError error={resolve.error} />
    </div>
  );
}

export function ReportsPage() {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? 'open';
  const page = Number(params.get('page')) || 1;
  const reports = useQuery({
    queryKey: ['reports', status, page],
    queryFn: () => api<CatalogPage<Report>>('/api/v1/moderation/reports', { query: { status, page, pageSize: 20 } }),
    // Another page or status keeps the rows shown (dimmed) until its own arrive, as every paged list does.
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Reports">
      <ModerationTabs />
      <label className="row">
        Status
        <select value={status} onChange={(e) => setParams({ status: e.target.value })}>
          <option value="open">Open</option>
          <option value="resolved">Resolved</option>
        </select>
      </label>
      {reports.isPending ? <Loading /> : null}
      <FormError error={reports.error} />
      <DataTable
        label="Reports"
        columns={['Item', 'Reason', 'Reported', 'Status', status === 'open' ? 'Resolve' : 'Resolution']}
        rows={reports.data?.items}
        total={reports.data?.total}
        busy={reports.isPlaceholderData}
        empty={`No ${status} reports.`}
      >
        {(r) => (
          <tr key={r.id}>
            <td>
              {r.itemType ? (
                <>
                  <Link to={`/moderation/${r.itemType}/${r.itemId}`}>{r.itemName ?? r.itemSlug}</Link>
                  <div className="muted">{typeNames[r.itemType]}</div>
                </>
              ) : (
                '—'
              )}
            </td>
            <td>
              {r.reason}
              {r.detail ? <div className="muted">{r.detail}</div> : null}
            </td>
            <td>{formatTime(r.createdAt)}</td>
            <td>
              <StatusBadge status={r.status} />
            </td>
            <td>
              {r.status === 'open' ? (
                <Resolve
                  report={r}
                  others={
                    (reports.data?.items ?? []).filter(
                      (o) => o.itemId === r.itemId && o.id !== r.id && o.status === 'open',
                    ).length
                  }
                />
              ) : (
                <>
                  {r.resolution ?? '—'}
                  <div className="muted">resolved {formatTime(r.resolvedAt)}</div>
                </>
              )}
            </td>
          </tr>
        )}
      </DataTable>
      {reports.data ? (
        <Pager
          page={reports.data.page}
          pageSize={reports.data.pageSize}
          total={reports.data.total}
          onPage={(p, how) => setParams({ status, page: String(p) }, how)}
        />
      ) : null}
    </Page>
  );
}
