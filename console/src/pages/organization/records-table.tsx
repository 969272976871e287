// A wallet's records: filter by type and by days, see which project and key spent each, page through them, download
// them as CSV; platform Admins may refund a consumption from here.
import { useState } from 'react';
import { Link } from 'react-router';
import { errorFrom, withQuery } from '../../api/http.js';
import { formatMoney, formatTime } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { DayInput } from '../../ui/day-input.js';
import { Pager } from '../../ui/pager.js';
import { FormError, StatusBadge } from '../../ui/status.js';
import { RefundForm } from './refund-form.js';
import { type RecordFilter, useRecords, type WalletRecord } from './wallet-api.js';

/** The export needs X-Organization-Id, which a plain link cannot send: fetch it, then save the file. */
async function downloadCsv(organizationId: string, filter: Omit<RecordFilter, 'page' | 'size'>) {
  const res = await fetch(withQuery('/api/organization/wallet/records/export', filter), {
    headers: { 'x-organization-id': organizationId },
    credentials: 'same-origin',
  });
  if (!res.ok) throw errorFrom(res.status, await res.json().catch(() => undefined));
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'wallet-records.csv';
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/**
 * The project and key of a Consume record's request (and of its Refund): a key the viewer may not see by name (another
 * member's, or one deleted since: the API names neither) is "another key", as on the Gateway page; a project deleted
 * since has no name and no page to link to.
 */
function SpentBy({ record }: { record: WalletRecord }) {
  if (!record.projectId) return null;
  const key = record.apiKeyId ? (record.apiKeyName ?? 'another key') : undefined;
  return (
    <>
      {record.projectName ? <Link to={`/gateway/${record.projectId}`}>{record.projectName}</Link> : 'a deleted project'}
      {key ? <span className="muted"> · {key}</span> : null}
    </>
  );
}

export function RecordsTable(props: { organizationId: string; currency: string; canRefund: boolean }) {
  const [filter, setFilter] = useState<RecordFilter>({ page: 1, size: 20 });
  const [exportError, setExportError] = useState<unknown>(null);
  const records = useRecords(props.organizationId, filter);
  const set = (change: Partial<RecordFilter>) => setFilter((f) => ({ ...f, ...change, page: change.page ?? 1 }));
  const { page: _page, size: _size, ...exportFilter } = filter;
  return (
    <section className="panel">
      <h2>Records</h2>
      <fieldset className="filters">
        <legend className="visually-hidden">Filter records</legend>
        <label>
          Type
          <select value={filter.type ?? ''} onChange={(e) => set({ type: e.target.value || undefined })}>
            <option value="">All types</option>
            <option>Recharge</option>
            <option>Consume</option>
            <option>Refund</option>
          </select>
        </label>
        <DayInput label="From (UTC day)" value={filter.from} onChange={(from) => set({ from })} />
        <DayInput label="To (UTC day, included)" value={filter.to} onChange={(to) => set({ to })} />
        <button
          type="button"
          onClick={() =>
            downloadCsv(props.organizationId, exportFilter).then(() => setExportError(null), setExportError)
          }
        >
          Export CSV
        </button>
      </fieldset>
      <FormError error={records.error ?? exportError} />
      <DataTable
        label="Wallet records"
        columns={[
          'Time',
          'Type',
          { label: 'Amount', num: true },
          { label: 'Balance after', num: true },
          'Description',
          'Spent by',
          ...(props.canRefund ? ['Refund'] : []),
        ]}
        rows={records.data?.data}
        busy={records.isPlaceholderData}
        empty={
          filter.type || filter.from || filter.to
            ? 'No records match these filters.'
            : 'No records yet. Money comes in as a Recharge (an organization Admin redeems a top-up code on this page); each paid gateway request then writes a Consume.'
        }
      >
        {(r) => (
          <tr key={r.id}>
            <td>{formatTime(r.createdAt)}</td>
            <td>
              <StatusBadge status={r.type} />
            </td>
            <td className="num">
              {r.type === 'Consume' ? '−' : '+'}
              {formatMoney(r.amount, props.currency)}
            </td>
            <td className="num">{formatMoney(r.currentBalance, props.currency)}</td>
            <td>{r.description ?? ''}</td>
            <td>
              <SpentBy record={r} />
            </td>
            {props.canRefund ? (
              <td>{r.type === 'Consume' ? <RefundForm record={r} organizationId={props.organizationId} /> : null}</td>
            ) : null}
          </tr>
        )}
      </DataTable>
      <Pager page={filter.page} pageSize={filter.size} total={records.data?.total} onPage={(page) => set({ page })} />
    </section>
  );
}
