// The settled balance over time as a step line: the balance before the window, then each hour's or day's closing
// balance, held to now. The line starts when the organization was created, not before: there was no wallet yet.
import { lazy, Suspense, useMemo, useState } from 'react';
import { formatMoney } from '../../format.js';
import { useOrganization } from '../../session/organization.js';
import { FormError, Loading } from '../../ui/status.js';
import { type BalanceHistory, useBalanceHistory } from './wallet-api.js';

const TimeChart = lazy(async () => ({ default: (await import('../../charts/time-chart.js')).TimeChart }));

const ranges = {
  day: { label: 'Last 24 hours', days: 1, interval: 'hour' },
  week: { label: 'Last 7 days', days: 7, interval: 'hour' },
  month: { label: 'Last 30 days', days: 30, interval: 'day' },
  quarter: { label: 'Last 90 days', days: 90, interval: 'day' },
} as const;

/**
 * The series over the whole window, with no value before the organization was created (`since`): the axis keeps the
 * chosen period, the line starts at the creation. A bucket that began before it (its day, from 00:00 UTC) is drawn
 * from the creation, where its closing balance replaces the opening one.
 */
function seriesOf(h: BalanceHistory, since?: string) {
  const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  const from = seconds(h.from);
  const start = since ? Math.max(from, seconds(since)) : from;
  const times = start > from ? [from, start] : [start];
  const values: (number | null)[] = start > from ? [null, h.openingBalance] : [h.openingBalance];
  for (const p of h.points) {
    const at = Math.max(start, seconds(p.at));
    if (at === times.at(-1)) values[values.length - 1] = p.balance;
    else {
      times.push(at);
      values.push(p.balance);
    }
  }
  const now = seconds(h.to);
  if ((times.at(-1) ?? 0) < now) {
    times.push(now);
    values.push(values.at(-1) ?? h.openingBalance);
  }
  return { times, values };
}

export function BalanceChart({ organizationId, currency }: { organizationId: string; currency: string }) {
  const [range, setRange] = useState<keyof typeof ranges>('month');
  const chosen = ranges[range];
  const history = useBalanceHistory(organizationId, chosen.days, chosen.interval);
  const since = useOrganization().organizations.find((o) => o.id === organizationId)?.createdAt;
  const data = useMemo(() => (history.data ? seriesOf(history.data, since) : undefined), [history.data, since]);
  const series = useMemo(
    () =>
      data
        ? [
            {
              label: `Balance (${currency})`,
              values: data.values,
              kind: 'step' as const,
              color: '#1f4e8c',
              format: (v: number) => formatMoney(v, currency),
            },
          ]
        : [],
    [data, currency],
  );
  return (
    <section>
      <label className="row">
        Period
        <select value={range} onChange={(e) => setRange(e.target.value as keyof typeof ranges)}>
          {Object.entries(ranges).map(([key, r]) => (
            <option key={key} value={key}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <FormError error={history.error} />
      {data ? (
        <Suspense fallback={<Loading label="Loading chart…" />}>
          <TimeChart title="Balance over time" times={data.times} series={series} />
        </Suspense>
      ) : (
        <Loading />
      )}
    </section>
  );
}
