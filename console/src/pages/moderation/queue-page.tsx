// The review queue: items waiting for a moderator, oldest first, filtered by type.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, type CatalogPage } from '../../api/http.js';
import { formatTime } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { Page } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { FormError, Loading } from '../../ui/status.js';
import { itemTypes, typeLabels, typeNames } from '../hub/hub-api.js';
import type { WorkflowEntry } from '../publisher/publisher-api.js';
import { DecidedNotice } from './decided-notice.js';
import { ModerationTabs } from './moderation-tabs.js';

export function QueuePage() {
  const [params, setParams] = useSearchParams();
  const type = params.get('type') ?? '';
  const page = Number(params.get('page')) || 1;
  const queue = useQuery({
    queryKey: ['queue', type, page],
    queryFn: () => api<CatalogPage<WorkflowEntry>>('/api/v1/moderation/queue', { query: { type, page, pageSize: 20 } }),
    // Another page or type keeps the rows shown (dimmed) until its own arrive, as every paged list does.
    placeholderData: keepPreviousData,
  });
  return (
    <Page title="Moderation">
      <ModerationTabs />
      <DecidedNotice />
      <label className="row">
        Type
        <select value={type} onChange={(e) => setParams(e.target.value ? { type: e.target.value } : {})}>
          <option value="">All types</option>
          {itemTypes.map((t) => (
            <option key={t} value={t}>
              {typeLabels[t]}
            </option>
          ))}
        </select>
      </label>
      {queue.isPending ? <Loading /> : null}
      <FormError error={queue.error} />
      <DataTable
        label="Review queue"
        columns={['Item', 'Type', 'Publisher', 'Version', 'Submitted', 'Note']}
        rows={queue.data?.items}
        total={queue.data?.total}
        busy={queue.isPlaceholderData}
        empty="Nothing is waiting for review."
      >
        {(item) => (
          <tr key={item.id}>
            <td>
              <Link to={`/moderation/${item.type}/${item.id}`}>{item.name}</Link>
              {item.isPublished ? <span className="badge">update</span> : <span className="badge">new</span>}
            </td>
            <td>{typeNames[item.type]}</td>
            <td>{item.publisherName}</td>
            <td>{item.pendingVersion?.version}</td>
            <td>{formatTime(item.pendingVersion?.submittedAt)}</td>
            <td>{item.submitComment ?? ''}</td>
          </tr>
        )}
      </DataTable>
      {queue.data ? (
        <Pager
          page={queue.data.page}
          pageSize={queue.data.pageSize}
          total={queue.data.total}
          onPage={(p, how) => setParams({ ...(type ? { type } : {}), page: String(p) }, how)}
        />
      ) : null}
    </Page>
  );
}
