// What a moderator deciding on an item knows about its publisher: its other items on the hub (how many, the newest
// few, each opening its moderation page) and the reports on its items (open and resolved, each count opening the
// reports list filtered to this publisher). Read from the public lists (`publisher=`) and the moderation reports list
// (`publisher=`): nothing here a moderator could not already read.
import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, type CatalogPage } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCountOf } from '../../format.js';
import { type ItemSummary, type ItemType, itemTypes, typeNames } from '../hub/hub-api.js';

const SHOWN = 5;

type Props = { itemId: string; publisherSlug: string; publisherName: string };

function OtherItems({ itemId, publisherSlug }: Props) {
  const params = { publisher: publisherSlug, pageSize: SHOWN + 1, sort: 'latest' };
  const lists = useQueries({
    queries: itemTypes.map((type) => ({
      queryKey: ['catalog', type, params],
      queryFn: () => api<CatalogPage<ItemSummary>>(apiPath`/api/v1/${type}`, { query: params }),
    })),
  });
  if (lists.some((l) => l.isPending)) return <p className="muted">Loading…</p>;
  const items = lists.flatMap((l, i) =>
    (l.data?.items ?? []).map((item) => ({ ...item, type: itemTypes[i] as ItemType })),
  );
  const others = items.filter((item) => item.id !== itemId);
  // The totals count this item too while it is on the hub.
  const total = lists.reduce((sum, l) => sum + (l.data?.total ?? 0), 0) - (items.length - others.length);
  const newest = others.sort((x, y) => (y.publishedAt ?? '').localeCompare(x.publishedAt ?? '')).slice(0, SHOWN);
  return (
    <>
      <p>{total === 0 ? 'No other items on the hub.' : `${formatCountOf(total, 'other item')} on the hub.`}</p>
      {newest.length > 0 ? (
        <ul className="plain">
          {newest.map((item) => (
            <li key={item.id}>
              <Link to={`/moderation/${item.type}/${item.id}`}>{item.name}</Link>{' '}
              <span className="muted">{typeNames[item.type]}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {total > newest.length ? <p className="muted">The newest {newest.length} shown.</p> : null}
    </>
  );
}

function PastReports({ publisherSlug }: { publisherSlug: string }) {
  const count = (status: 'open' | 'resolved') => ({
    queryKey: ['reports', 'publisher', publisherSlug, status],
    queryFn: () =>
      api<CatalogPage<unknown>>('/api/v1/moderation/reports', {
        query: { publisher: publisherSlug, status, pageSize: 1 },
      }),
  });
  const open = useQuery(count('open'));
  const resolved = useQuery(count('resolved'));
  if (!open.data || !resolved.data) return <p className="muted">Loading…</p>;
  const link = (status: 'open' | 'resolved', total: number) => (
    <Link to={`/moderation/reports?status=${status}&publisher=${encodeURIComponent(publisherSlug)}`}>
      {formatCountOf(total, `${status} report`)}
    </Link>
  );
  return (
    <p>
      {open.data.total + resolved.data.total === 0 ? (
        'No reports on any of its items.'
      ) : (
        <>
          {link('open', open.data.total)} · {link('resolved', resolved.data.total)}
        </>
      )}
    </p>
  );
}

export function PublisherRecord(props: Props) {
  return (
    <section className="panel" aria-label="Publisher's record">
      <h2>
        Publisher: {props.publisherName} <code>{props.publisherSlug}</code>
      </h2>
      <h3>Other items by this publisher</h3>
      <OtherItems {...props} />
      <h3>Past reports on this publisher's items</h3>
      <PastReports publisherSlug={props.publisherSlug} />
    </section>
  );
}
