// A usage bar: how much of a limit is used, written out in words too.
import { formatCount } from '../format.js';

export function UsageBar({ label, used, limit }: { label: string; used: number; limit: number | undefined }) {
  if (limit === undefined) {
    return (
      <div className="usage">
        <span>{label}</span>
        <span className="muted">{formatCount(used)} used, no limit</span>
      </div>
    );
  }
  const fraction = limit === 0 ? 1 : Math.min(1, used / limit);
  const level = fraction >= 0.9 ? 'high' : fraction >= 0.7 ? 'mid' : 'low';
  return (
    <div className="usage">
      <span>{label}</span>
      <div
        className={`bar bar-${level}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(used, limit)}
      >
        <div className="bar-fill" style={{ width: `${(fraction * 100).toFixed(1)}%` }} />
      </div>
      <span className="muted">
        {formatCount(used)} of {formatCount(limit)}
      </span>
    </div>
  );
}
