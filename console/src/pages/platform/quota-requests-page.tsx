// Quota requests from every account: approve (the account's daily quota becomes the requested one) or reject (asks
// twice: the account has to ask again); the page says what the decision did.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCount, formatTime } from '../../format.js';
import { ConfirmButton } from '../../ui/confirm-button.js';
import { DataTable } from '../../ui/data-table.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading, Notice, StatusBadge } from '../../ui/status.js';
import type { QuotaRequest } from '../account/quota-page.js';
import { PlatformTabs } from './platform-tabs.js';

type Request = QuotaRequest & { account: { id: string; email: string; name?: string; dailyQuota: number } };

export function QuotaRequestsPage() {
  const client = useQueryClient();
  const [status, setStatus] = useState('pending');
  const requests = useQuery({
    queryKey: ['admin-quota-requests', status],
    queryFn: () => api<Request[]>('/api/v1/admin/quota-requests', { query: { status } }),
  });
  const decide = useMutation({
    mutationFn: (d: { request: Request; action: 'approve' | 'reject' }) =>
      api(apiPath`/api/v1/admin/quota-requests/${d.request.id}/${d.action}`, { method: 'POST' }),
    // Also after an error: a request the account replaced meanwhile is gone (404), and the list shows its successor.
    // Returned, so the decision stays pending (its buttons disabled) until the list no longer offers the request.
    onSettled: () => client.invalidateQueries({ queryKey: ['admin-quota-requests'] }),
  });
  // Said above the table, not in the row: the decided row leaves the pending list, and a message in it would too.
  const decided = decide.isSuccess ? decide.variables : undefined;
  return (
    <Page title="Quota requests">
      <PlatformTabs />
      <label className="row">
        Status
        <select value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="pending">Pending</option>
          <option value="approved">Approved</option>
          <option value="rejected">Rejected</option>
        </select>
      </label>
      {requests.isPending ? <Loading /> : null}
      <FormError error={requests.error ?? decide.error} />
      {decided ? (
        <Notice>
          {decided.action === 'approve'
            ? `Approved: the daily quota of ${decided.request.account.email} is now ${formatCount(decided.request.requestedQuota)}.`
            : `Rejected the request of ${decided.request.account.email}; their daily quota stays ${formatCount(decided.request.account.dailyQuota)}.`}
        </Notice>
      ) : null}
      <DataTable
        label="Quota requests"
        columns={[
          'Account',
          { label: 'Now', num: true },
          { label: 'Asked', num: true },
          'Reason',
          'Asked on',
          'Status',
        ]}
        rows={requests.data}
        empty={`No ${status} requests.`}
      >
        {(r) => (
          <tr key={r.id}>
            <td>
              {r.account.name ?? ''}
              <div className="muted email">{r.account.email}</div>
            </td>
            <td className="num">{formatCount(r.account.dailyQuota)}</td>
            <td className="num">{formatCount(r.requestedQuota)}</td>
            <td>{r.reason ?? ''}</td>
            <td>{formatTime(r.createdAt)}</td>
            <td>
              {r.status === 'pending' ? (
                <div className="row">
                  <button
                    type="button"
                    className="primary"
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ request: r, action: 'approve' })}
                  >
                    Approve
                  </button>
                  <ConfirmButton
                    label="Reject"
                    confirmLabel="Reject the request"
                    disabled={decide.isPending}
                    onConfirm={() => decide.mutate({ request: r, action: 'reject' })}
                  />
                </div>
              ) : (
                <StatusBadge status={r.status} />
              )}
            </td>
          </tr>
        )}
      </DataTable>
    </Page>
  );
}
