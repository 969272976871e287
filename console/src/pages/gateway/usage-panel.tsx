// A project's gateway usage over the last days (UTC): what it spent per day as bars, and per operation and the model
// that served them the requests, tokens (cache reads and writes apart) and money, from GET /api/projects/{projectId}/usage (the ledger writer's per-day roll-up), and the
// requests refused at admission by reason (quota, balance), which appear in no request list.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { api, type Envelope } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCount, formatMoney } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { FormError, Loading } from '../../ui/status.js';

const TimeChart = lazy(async () => ({ default: (await import('../../charts/time-chart.js')).TimeChart }));

type ProjectUsage = {
  currency: string;
  from: string;
  to: string;
  days: { day: string; requests: number; spent: number }[];
  models: {
    operation: string;
    model?: string;
    requests: number;
    inputTokens: number;
    outputTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    spent: number;
  }[];
  refusals: { day: string; reason: keyof typeof refusalLabels; count: number }[];
};

/** What each refusal reason reads as, in this order (the API's `refusals[].reason`). */
const refusalLabels = {
  dailyRequests: 'over quota (daily requests)',
  dailyTokens: 'over quota (daily tokens)',
  monthlyRequests: 'over quota (monthly requests)',
  monthlyTokens: 'over quota (monthly tokens)',
  requestsPerMinute: 'over quota (requests per minute)',
  balance: 'insufficient balance',
  inactive: 'wallet inactive',
  backlog: 'ledger backlog (503)',
} as const;

/** "Refused: 2 over quota (daily requests), 1 insufficient balance", or nothing when none was refused. */
function refusedLine(refusals: ProjectUsage['refusals']): string | undefined {
  const byReason = new Map<string, number>();
  for (const r of refusals) byReason.set(r.reason, (byReason.get(r.reason) ?? 0) + r.count);
  const parts = Object.entries(refusalLabels)
    .filter(([reason]) => byReason.has(reason))
    .map(([reason, label]) => `${formatCount(byReason.get(reason))} ${label}`);
  return parts.length ? `Refused: ${parts.join(', ')}` : undefined;
}

const ranges = { 7: 'Last 7 days', 30: 'Last 30 days', 90: 'Last 90 days' } as const;
type Range = keyof typeof ranges;

const DAY = 86_400;
/** As long as the API keeps refusal counts (shared/gateway/refusal-counts.ts). */
const REFUSAL_DAYS_KEPT = 7;

/** Every day of the window, with what was spent on it (0 for a day without requests). */
function dailySpend(usage: ProjectUsage) {
  const spentOn = new Map(usage.days.map((d) => [d.day, d.spent]));
  const times: number[] = [];
  const values: number[] = [];
  const last = Date.parse(`${usage.to.slice(0, 10)}T00:00:00.000Z`) / 1000;
  for (let t = Date.parse(usage.from) / 1000; t <= last; t += DAY) {
    times.push(t);
    values.push(spentOn.get(new Date(t * 1000).toISOString().slice(0, 10)) ?? 0);
  }
  return { times, values };
}

const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export function UsagePanel({ projectId, organizationId }: { projectId: string; organizationId: string }) {
  const [days, setDays] = useState<Range>(30);
  const usage = useQuery({
    queryKey: ['project-usage', projectId, days],
    queryFn: () =>
      api<Envelope<ProjectUsage>>(apiPath`/api/projects/${projectId}/usage`, { organizationId, query: { days } }),
    placeholderData: keepPreviousData,
    // As often as the quota and the recent requests beside it, so the three panels agree within seconds.
    refetchInterval: 10_000,
  });
  const data = usage.data?.data;
  const chart = useMemo(() => (data ? dailySpend(data) : undefined), [data]);
  const series = useMemo(
    () =>
      data
        ? [
            {
              label: `Spent per day (${data.currency})`,
              values: chart?.values ?? [],
              kind: 'bars' as const,
              color: '#1f4e8c',
              format: (v: number) => formatMoney(v, data.currency),
            },
          ]
        : [],
    [data, chart],
  );
  const total = data?.models.reduce((sum, m) => ({ requests: sum.requests + m.requests, spent: sum.spent + m.spent }), {
    requests: 0,
    spent: 0,
  });
  const refused = data ? refusedLine(data.refusals) : undefined;
  return (
    <section className="panel" aria-label="Usage">
      <h2>Usage</h2>
      <label className="row">
        Period
        <select value={days} onChange={(e) => setDays(Number(e.target.value) as Range)}>
          {Object.entries(ranges).map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <FormError error={usage.error} />
      {usage.isPending ? <Loading /> : null}
      {data && total ? (
        <>
          <p data-testid="usage-total">
            {formatCount(total.requests)} {total.requests === 1 ? 'request' : 'requests'},{' '}
            {formatMoney(total.spent, data.currency)} spent (UTC days; requests appear here about a second after they
            finish)
          </p>
          {refused ? (
            <p data-testid="usage-refused">
              {refused} (requests refused at admission, not counted above; kept for the last {REFUSAL_DAYS_KEPT} days)
            </p>
          ) : null}
          {chart && total.requests > 0 ? (
            <Suspense fallback={<Loading label="Loading chart…" />}>
              <TimeChart title="Spent per day" times={chart.times} series={series} formatTime={dayOf} bucket={DAY} />
            </Suspense>
          ) : null}
          <DataTable
            label="Usage by model"
            columns={[
              'Operation',
              'Model',
              { label: 'Requests', num: true },
              { label: 'Tokens in', num: true },
              { label: 'Cache read', num: true },
              { label: 'Cache write', num: true },
              { label: 'Tokens out', num: true },
              { label: 'Spent', num: true },
            ]}
            rows={data.models}
            busy={usage.isPlaceholderData}
            empty="No gateway requests in this period."
          >
            {(m) => (
              <tr key={`${m.operation} ${m.model ?? ''}`}>
                <td>{m.operation}</td>
                <td>{m.model ?? '—'}</td>
                <td className="num">{formatCount(m.requests)}</td>
                <td className="num">{formatCount(m.inputTokens)}</td>
                <td className="num">{formatCount(m.cacheReadTokens)}</td>
                <td className="num">{formatCount(m.cacheWriteTokens)}</td>
                <td className="num">{formatCount(m.outputTokens)}</td>
                <td className="num">{formatMoney(m.spent, data.currency)}</td>
              </tr>
            )}
          </DataTable>
        </>
      ) : null}
    </section>
  );
}
