// An item's counters and rating, as the hub's item page and the publisher's own item page show them.
import { formatCount } from '../format.js';

export type ItemStatsFigures = {
  viewCount: number;
  installCount: number;
  usageCount: number;
  favoriteCount: number;
  ratingCount: number;
  ratingAverage?: number;
};

export const ratingText = (s: Pick<ItemStatsFigures, 'ratingAverage' | 'ratingCount'>) =>
  s.ratingCount ? `${(s.ratingAverage ?? 0).toFixed(2)} (${formatCount(s.ratingCount)})` : 'not rated yet';

export function ItemStats({ stats: s }: { stats: ItemStatsFigures }) {
  const rows: [string, string][] = [
    ['Installs', formatCount(s.installCount)],
    ['Uses', formatCount(s.usageCount)],
    ['Views', formatCount(s.viewCount)],
    ['Favorites', formatCount(s.favoriteCount)],
    ['Rating', ratingText(s)],
  ];
  return (
    <dl className="stat-grid" aria-label="Counts">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
