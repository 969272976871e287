// Reports about items: open ones first, each with its item and reason, and resolving one with a note. An item's
// name opens its moderation page (status, history, and removing it from the hub), which works whether or not it is
// still public; a removed item's hub page would only say "not found". Each row names the item's publisher (its name and
// namespace, as the item's public page does), and the list reads newest or oldest first.
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
  publisherSlug?: string;
  publisherName?: string;
  source?: 'official' | 'user';
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
  const sort = params.get('sort') === 'oldest' ? 'oldest' : 'newest';
  // From an item's moderation page: only the reports on its publisher's items.
  const publisher = params.get('publisher') ?? undefined;
  const page = Number(params.get('page')) || 1;
  // The address keeps the status and the order (a reload or a shared link shows the same list); newest is the default.
  const show = (next: { status?: string; sort?: string; page?: number }, how?: { replace?: boolean }) => {
    const chosen = { status, sort, ...next };
    setParams(
      {
        status: chosen.status,
        ...(chosen.sort === 'oldest' ? { sort: 'oldest' } : {}),
        ...(publisher ? { publisher } : {}),
        ...(next.page ? { page: String(next.page) } : {}),
      },
      how,
    );
  };
  const reports = useQuery({
    queryKey: ['reports', status, sort, publisher, page],
    queryFn: () =>
      api<CatalogPage<Report>>('/api/v1/moderation/reports', {
        query: { status, sort, publisher, page, pageSize: 20 },
      }),
    // Another page or status keeps the rows shown (dimmed) until its own arrive, as every paged list does.
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Reports">
      <ModerationTabs />
      <div className="row">
        <label className="row">
          Status
          <select value={status} onChange={(e) => show({ status: e.target.value })}>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
          </select>
        </label>
        <label className="row">
          Order
          <select value={sort} onChange={(e) => show({ sort: e.target.value })}>
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
        </label>
      </div>
      {publisher ? (
        <p>
          Only reports on the items of <code>{publisher}</code> ·{' '}
          <Link to={`/moderation/reports?status=${status}${sort === 'oldest' ? '&sort=oldest' : ''}`}>all reports</Link>
        </p>
      ) : null}
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
                  <div className="muted">
                    {typeNames[r.itemType]}
                    {r.publisherSlug ? (
                      <>
                        {' by '}
                        {r.publisherName} <code>{r.publisherSlug}</code>
                        {r.source === 'official' ? ' (official)' : ''}
                      </>
                    ) : null}
                  </div>
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
          onPage={(p, how) => show({ page: p }, how)}
        />
      ) : null}
    </Page>
  );
}
