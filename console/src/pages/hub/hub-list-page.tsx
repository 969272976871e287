// The public hub: browse and search one item type by category, tag, source and the five sorts. Every choice lives
// in the URL, so a reload, a shared link or the back button shows the same page.
import { type FormEvent, useEffect, useState } from 'react';
import { Link, Navigate, useParams, useSearchParams } from 'react-router';
import { formatCount, formatCountOf } from '../../format.js';
import { Page, Tabs } from '../../ui/page.js';
import { Pager } from '../../ui/pager.js';
import { Empty, FormError, Loading } from '../../ui/status.js';
import {
  type ItemSummary,
  type ItemType,
  isItemType,
  itemTypes,
  type ListParams,
  sorts,
  typeLabels,
  useCatalogList,
  useCategories,
} from './hub-api.js';

const PAGE_SIZE = 12;
const filterKeys = ['search', 'category', 'tag', 'source', 'sort', 'pageSize'] as const;

function ItemCard({ type, item }: { type: ItemType; item: ItemSummary }) {
  return (
    <li className="card">
      <h2>
        <Link to={`/hub/${type}/${item.slug}`}>{item.name}</Link>
      </h2>
      <p className="muted">
        by {item.publisherName}{' '}
        <span className={`badge badge-${item.source}`}>{item.source === 'official' ? 'official' : 'community'}</span>
        {item.isFeatured ? <span className="badge badge-featured">featured</span> : null}
      </p>
      <p>{item.summary}</p>
      <p className="stats">
        <span>{formatCountOf(item.installCount, 'install')}</span>
        <span>{formatCountOf(item.viewCount, 'view')}</span>
        {item.ratingAverage ? <span>★ {item.ratingAverage.toFixed(1)}</span> : null}
        {item.toolCount !== undefined ? <span>{formatCountOf(item.toolCount, 'tool')}</span> : null}
      </p>
      {item.tags.length > 0 ? (
        <p className="tags">
          {item.tags.map((t) => (
            <Link key={t} to={`/hub/${type}?tag=${t}`} className="tag">
              #{t}
            </Link>
          ))}
        </p>
      ) : null}
    </li>
  );
}

function Filters({ type }: { type: ItemType }) {
  const [params, setParams] = useSearchParams();
  const categories = useCategories(type);
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [tag, setTag] = useState(params.get('tag') ?? '');
  useEffect(() => {
    setSearch(params.get('search') ?? '');
    setTag(params.get('tag') ?? '');
  }, [params]);

  const update = (changes: Partial<Record<(typeof filterKeys)[number], string>>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    next.delete('page');
    setParams(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    update({ search: search.trim(), tag: tag.trim() });
  };

  return (
    <search>
      <form className="filters" onSubmit={submit} aria-label={`Search ${typeLabels[type]}`}>
        <label>
          Search
          <input type="search" name="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <label>
          Category
          <select value={params.get('category') ?? ''} onChange={(e) => update({ category: e.target.value })}>
            <option value="">Any category</option>
            {(categories.data ?? []).map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name} ({c.count})
              </option>
            ))}
          </select>
        </label>
        <label>
          Tag
          <input name="tag" value={tag} onChange={(e) => setTag(e.target.value)} placeholder="e.g. pdf" />
        </label>
        <label>
          Source
          <select value={params.get('source') ?? ''} onChange={(e) => update({ source: e.target.value })}>
            <option value="">Any source</option>
            <option value="official">Official</option>
            <option value="user">Community</option>
          </select>
        </label>
        <label>
          Sort
          <select value={params.get('sort') ?? ''} onChange={(e) => update({ sort: e.target.value })}>
            <option value="">{params.get('search') ? 'Relevance' : 'Newest'}</option>
            {sorts.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Per page
          <select
            value={params.get('pageSize') ?? String(PAGE_SIZE)}
            onChange={(e) => update({ pageSize: e.target.value })}
          >
            {(['12', '24', '48'].includes(params.get('pageSize') ?? String(PAGE_SIZE))
              ? []
              : [params.get('pageSize') ?? '']
            )
              .concat(['12', '24', '48'])
              .map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
          </select>
        </label>
        <button type="submit">Search</button>
      </form>
    </search>
  );
}

export function HubListPage() {
  const { type } = useParams();
  const [params, setParams] = useSearchParams();
  if (!isItemType(type)) return <Navigate to="/hub/mcp" replace />;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Math.min(100, Math.max(1, Number(params.get('pageSize')) || PAGE_SIZE));
  const query: ListParams = { page, pageSize };
  for (const key of ['search', 'category', 'tag', 'source', 'sort'] as const) {
    const value = params.get(key);
    if (value) query[key] = value;
  }
  return <HubList type={type} query={query} setPage={(p, how) => setParams(withPage(params, p), how)} />;
}

const withPage = (params: URLSearchParams, page: number) => {
  const next = new URLSearchParams(params);
  if (page > 1) next.set('page', String(page));
  else next.delete('page');
  return next;
};

function HubList({
  type,
  query,
  setPage,
}: {
  type: ItemType;
  query: ListParams;
  setPage: (p: number, how?: { replace: boolean }) => void;
}) {
  const list = useCatalogList(type, query);
  return (
    <Page title={typeLabels[type]}>
      <Tabs label="Item types">
        {itemTypes.map((t) => (
          <Link
            key={t}
            to={`/hub/${t}`}
            className={t === type ? 'active' : undefined}
            aria-current={t === type ? 'page' : undefined}
          >
            {typeLabels[t]}
          </Link>
        ))}
      </Tabs>
      <Filters type={type} />
      {list.isPending ? <Loading /> : null}
      <FormError error={list.error} />
      {list.data ? (
        <>
          <p className="muted" role="status">
            {formatCount(list.data.total)} {list.data.total === 1 ? 'item' : 'items'}
          </p>
          {list.data.items.length === 0 ? (
            <Empty>
              Nothing matches these filters. <Link to={`/hub/${type}`}>Show all {typeLabels[type]}</Link>.
            </Empty>
          ) : (
            <ul className="cards">
              {list.data.items.map((item) => (
                <ItemCard key={item.id} type={type} item={item} />
              ))}
            </ul>
          )}
          <Pager page={list.data.page} pageSize={list.data.pageSize} total={list.data.total} onPage={setPage} />
        </>
      ) : null}
    </Page>
  );
}
