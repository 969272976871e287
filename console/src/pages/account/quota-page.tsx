// The account's daily quota (shared by all its API keys): the last 30 days' requests as a chart against the quota,
// and quota requests (ask for more; see their status).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useMemo, useState } from 'react';
import { api } from '../../api/http.js';
import { formatCount, formatTime } from '../../format.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { Empty, FormError, Loading, Notice, StatusBadge } from '../../ui/status.js';
import { AccountTabs } from './account-tabs.js';

const TimeChart = lazy(async () => ({ default: (await import('../../charts/time-chart.js')).TimeChart }));

type Usage = { dailyQuota: number; days: { date: string; requestCount: number }[] };
/** A request for a higher daily quota, as the API presents it (also in the platform Admin's list). */
export type QuotaRequest = {
  id: string;
  requestedQuota: number;
  reason?: string;
  status: 'pending' | 'approved' | 'rejected';
  createdAt: string;
  decidedAt?: string;
};

function UsageChart({ usage }: { usage: Usage }) {
  const data = useMemo(() => {
    const times = usage.days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    return {
      times,
      series: [
        { label: 'Requests', values: usage.days.map((d) => d.requestCount), kind: 'bars' as const, color: '#1f4e8c' },
        {
          label: 'Daily quota',
          values: usage.days.map(() => usage.dailyQuota),
          kind: 'line' as const,
          color: '#a1231b',
        },
      ],
    };
  }, [usage]);
  const today = usage.days.at(-1)?.requestCount ?? 0;
  return (
    <>
      <p>
        Today: <strong>{formatCount(today)}</strong> of <strong>{formatCount(usage.dailyQuota)}</strong> requests
        (resets at 00:00 UTC).
      </p>
      <Suspense fallback={<Loading label="Loading chart…" />}>
        <TimeChart
          title="Requests per day, last 30 days"
          times={data.times}
          series={data.series}
          formatTime={(s) => new Date(s * 1000).toISOString().slice(0, 10)}
          bucket={86_400}
        />
      </Suspense>
    </>
  );
}

function QuotaRequestForm() {
  const client = useQueryClient();
  const [requestedQuota, setQuota] = useState('5000');
  const [reason, setReason] = useState('');
  const send = useMutation({
    mutationFn: () =>
      api<QuotaRequest>('/api/v1/api-keys/quota-requests', {
        method: 'POST',
        body: { requestedQuota: Number(requestedQuota), ...(reason.trim() ? { reason } : {}) },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['quota-requests'] }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    send.mutate();
  };
  return (
    <form className="stack narrow" onSubmit={submit} aria-label="Ask for a higher daily quota">
      <h2>Ask for a higher quota</h2>
      <Field label="Requests per day" hint="1 to 1,000,000. A new request replaces your pending one.">
        {(p) => (
          <input
            {...p}
            type="number"
            inputMode="numeric"
            value={requestedQuota}
            onChange={(e) => setQuota(e.target.value)}
          />
        )}
      </Field>
      <Field label="Reason (optional)">
        {(p) => (
          <textarea {...p} rows={2} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />
        )}
      </Field>
      <FormError error={send.error} />
      {send.isSuccess ? <Notice>Request sent; an Admin will decide.</Notice> : null}
      <button type="submit" disabled={send.isPending}>
        Send request
      </button>
    </form>
  );
}

export function QuotaPage() {
  const usage = useQuery({
    queryKey: ['usage', 30],
    queryFn: () => api<Usage>('/api/v1/api-keys/usage', { query: { days: 30 } }),
  });
  const requests = useQuery({
    queryKey: ['quota-requests'],
    queryFn: () => api<QuotaRequest[]>('/api/v1/api-keys/quota-requests/mine'),
  });
  return (
    <Page title="Daily quota">
      <AccountTabs />
      <p className="muted">
        Counts the catalog API requests (<code>/api/v1</code>) your API keys make, all keys together, and starts again
        at 00:00 UTC. Gateway calls (<code>/v1</code>) are not counted here: their project's quota and the
        organization's wallet govern them.
      </p>
      {usage.isPending ? <Loading /> : null}
      <FormError error={usage.error} />
      {usage.data ? <UsageChart usage={usage.data} /> : null}
      <div className="grid2">
        <QuotaRequestForm />
        <section>
          <h2>My quota requests</h2>
          <FormError error={requests.error} />
          {requests.data?.length === 0 ? <Empty>None yet.</Empty> : null}
          <ul className="plain" aria-label="My quota requests">
            {(requests.data ?? []).map((r) => (
              <li key={r.id}>
                <StatusBadge status={r.status} /> {formatCount(r.requestedQuota)} per day · asked{' '}
                {formatTime(r.createdAt)}
                {r.decidedAt ? ` · decided ${formatTime(r.decidedAt)}` : ''}
              </li>
            ))}
          </ul>
        </section>
      </div>
    </Page>
  );
}
