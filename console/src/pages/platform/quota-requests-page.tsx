// Quota requests from every account: approve (the account's daily quota becomes the requested one) or reject.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/http.js';
import { formatCount, formatTime } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading, StatusBadge } from '../../ui/status.js';
import type { QuotaRequest } from '../account/quota-page.js';
import { PlatformTabs } from './platform-tabs.js';

type Request = QuotaRequest & { account: { id: string; email: string; name?: string; dailyQuota?: number } };

export function QuotaRequestsPage() {
  const client = useQueryClient();
  const [status, setStatus] = useState('pending');
  const requests = useQuery({
    queryKey: ['admin-quota-requests', status],
    queryFn: () => api<Request[]>('/api/v1/admin/quota-requests', { query: { status } }),
  });
  const decide = useMutation({
    mutationFn: (d: { id: string; action: 'approve' | 'reject' }) =>
      api(`/api/v1/admin/quota-requests/${d.id}/${d.action}`, { method: 'POST' }),
    // Also after an error: a request the account replaced meanwhile is gone (404), and the list shows its successor.
    onSettled: () => client.invalidateQueries({ queryKey: ['admin-quota-requests'] }),
  });
  const _rows = requests.data ?? [];
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
              <div className="muted">{r.account.email}</div>
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
                    onClick={() => decide.mutate({ id: r.id, action: 'approve' })}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    className="danger"
                    onClick={() => decide.mutate({ id: r.id, action: 'reject' })}
                  >
                    Reject
                  </button>
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
