// The moderation area's sub-navigation, each tab with what waits there: the items in review and the open reports; then
// the moderator's own decisions (nothing waits there, so no count).
// The counts are the lists' own totals (a one-row page each), refreshed with them: a decision invalidates ['queue'],
// a resolution or removal ['reports'].
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import { api, type CatalogPage } from '../../api/http.js';
import { Tabs } from '../../ui/page.js';

const useWaiting = (key: string, path: string, query: Record<string, string | number>) =>
  useQuery({
    queryKey: [key, 'waiting'],
    queryFn: () => api<CatalogPage<unknown>>(path, { query: { ...query, page: 1, pageSize: 1 } }),
    select: (page) => page.total,
  }).data;

const counted = (label: string, n: number | undefined, what = '') =>
  n === undefined ? label : `${label} (${n}${what})`;

export function ModerationTabs() {
  const inReview = useWaiting('queue', '/api/v1/moderation/queue', {});
  const open = useWaiting('reports', '/api/v1/moderation/reports', { status: 'open' });
  return (
    <Tabs label="Moderation">
      <NavLink end to="/moderation">
        {counted('Review queue', inReview)}
      </NavLink>
      <NavLink to="/moderation/reports">{counted('Reports', open, ' open')}</NavLink>
      <NavLink to="/moderation/decisions">My decisions</NavLink>
    </Tabs>
  );
}
