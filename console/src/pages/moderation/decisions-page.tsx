// My decisions: the approvals, requests for changes, rejections and removals this moderator made, newest first, each
// opening the item's moderation page (its status and history now). From GET /api/v1/moderation/decisions, which lists
// only the caller's own.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, type CatalogPage } from '../../api/http.js';
import { formatTime } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading } from '../../ui/status.js';
import { type ItemType, typeNames } from '../hub/hub-api.js';
import { ModerationTabs } from './moderation-tabs.js';

type OwnDecision = {
  id: string;
  action: 'approve' | 'request_changes' | 'reject' | 'remove';
  itemId: string;
  itemType: ItemType;
  itemName: string;
  version?: string;
  comment?: string;
  at: string;
};

const actionNames: Record<OwnDecision['action'], string> = {
  approve: 'Approved',
  request_changes: 'Asked for changes',
  reject: 'Rejected',
  remove: 'Removed from the hub',
};

export function DecisionsPage() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page')) || 1;
  const decisions = useQuery({
    queryKey: ['decisions', page],
    queryFn: () => api<CatalogPage<OwnDecision>>('/api/v1/moderation/decisions', { query: { page, pageSize: 20 } }),
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="My decisions">
      <ModerationTabs />
      {decisions.isPending ? <Loading /> : null}
      <FormError error={decisions.error} />
      <DataTable
        label="My decisions"
        columns={['Item', 'Decision', 'Version', 'Comment or reason', 'When']}
        rows={decisions.data?.items}
        total={decisions.data?.total}
        busy={decisions.isPlaceholderData}
        empty="You have not decided on any item yet."
      >
        {(d) => (
          <tr key={d.id}>
            <td>
              <Link to={`/moderation/${d.itemType}/${d.itemId}`}>{d.itemName}</Link>
              <div className="muted">{typeNames[d.itemType]}</div>
            </td>
            <td>{actionNames[d.action] ?? d.action}</td>
            <td>{d.version ?? '—'}</td>
            <td>{d.comment ?? '—'}</td>
            <td>{formatTime(d.at)}</td>
          </tr>
        )}
      </DataTable>
      {decisions.data ? (
        <Pager
          page={decisions.data.page}
          pageSize={decisions.data.pageSize}
          total={decisions.data.total}
          onPage={(p, how) => setParams({ page: String(p) }, how)}
        />
      ) : null}
    </Page>
  );
}
