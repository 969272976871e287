// A project's quotas: usage against each limit as bars (today and the current monthly window, with its reset day),
// and the limits themselves for the project's Owner or an organization Admin.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { ApiError, apiData } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCountOf, formatTime } from '../../format.js';
import { Field } from '../../ui/field.js';
import { UsageBar } from '../../ui/meter.js';
import { FormError, Loading, Notice } from '../../ui/status.js';
import { type LimitKey, limitKeys } from './quota-limits.js';

type Quota = Partial<Record<LimitKey, number>> & { enforceQuota: boolean; customResetDay?: number };
type Usage = {
  dailyUsage?: { requestCount: number; tokenCount: number; date: string };
  monthlyUsage?: { requestCount: number; tokenCount: number; resetDay: number; windowStart: string };
  enforceQuota: boolean;
};

function useQuota(projectId: string, organizationId: string) {
  return useQuery({
    queryKey: ['quota', projectId],
    queryFn: async () => {
      try {
        return await apiData<Quota>(apiPath`/api/projects/${projectId}/quota`, { organizationId });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404 && err.code === 'Quota.NotFound') return null;
        throw err;
      }
    },
  });
}

function QuotaForm({
  projectId,
  organizationId,
  quota,
}: {
  projectId: string;
  organizationId: string;
  quota: Quota | null;
}) {
  const client = useQueryClient();
  const initial = () => ({
    ...Object.fromEntries(limitKeys.map(([k]) => [k, quota?.[k] === undefined ? '' : String(quota[k])])),
    customResetDay: String(quota?.customResetDay ?? 1),
  });
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [enforce, setEnforce] = useState(quota?.enforceQuota ?? true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset the form when the saved quota changes
  useEffect(() => setValues(initial()), [quota]);
  const save = useMutation({
    mutationFn: () =>
      apiData<Quota>(apiPath`/api/projects/${projectId}/quota`, {
        method: 'POST',
        organizationId,
        body: {
          ...Object.fromEntries(limitKeys.map(([k]) => [k, values[k] === '' ? null : Number(values[k])])),
          enforceQuota: enforce,
          customResetDay: Number(values.customResetDay),
        },
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['quota', projectId] });
      void client.invalidateQueries({ queryKey: ['quota-usage', projectId] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const set = (k: string, v: string) => setValues((s) => ({ ...s, [k]: v }));
  return (
    <form className="stack" onSubmit={submit} aria-label="Project quota">
      <h3>Limits</h3>
      <div className="grid2">
        {limitKeys.map(([k, label]) => (
          <Field key={k} label={label} hint="Empty: no limit.">
            {(p) => (
              <input {...p} type="number" min={0} value={values[k] ?? ''} onChange={(e) => set(k, e.target.value)} />
            )}
          </Field>
        ))}
        <Field label="Monthly reset day" hint="1 to 28: the day the monthly window starts again.">
          {(p) => (
            <input
              {...p}
              type="number"
              min={1}
              max={28}
              value={values.customResetDay ?? '1'}
              onChange={(e) => set('customResetDay', e.target.value)}
            />
          )}
        </Field>
      </div>
      <label className="row">
        <input type="checkbox" checked={enforce} onChange={(e) => setEnforce(e.target.checked)} /> Enforce these limits
      </label>
      <FormError error={save.error} />
      {save.isSuccess ? <Notice>Quota saved.</Notice> : null}
      <div>
        <button type="submit" disabled={save.isPending}>
          Save quota
        </button>
      </div>
    </form>
  );
}

/** `children`: said under the usage (the Gateway page's way to the limits). */
export function ProjectQuota(props: {
  projectId: string;
  organizationId: string;
  canManage: boolean;
  children?: ReactNode;
}) {
  const quota = useQuota(props.projectId, props.organizationId);
  const usage = useQuery({
    queryKey: ['quota-usage', props.projectId],
    queryFn: () =>
      apiData<Usage>(apiPath`/api/projects/${props.projectId}/quota-usage`, {
        organizationId: props.organizationId,
        query: { period: 'month' },
      }),
    refetchInterval: 10_000,
  });
  if (quota.isPending || usage.isPending) return <Loading />;
  const q = quota.data ?? undefined;
  const u = usage.data;
  return (
    <section className="panel" aria-label="Quota">
      <h2>Quota</h2>
      <FormError error={quota.error ?? usage.error} />
      {!q ? <p className="muted">No quota configured: this project is not limited.</p> : null}
      {q && !q.enforceQuota ? <p className="muted">Limits are set but not enforced.</p> : null}
      {u?.dailyUsage ? (
        <>
          <h3>Today ({u.dailyUsage.date})</h3>
          <UsageBar label="Requests today" used={u.dailyUsage.requestCount} limit={q?.dailyRequestLimit} />
          <UsageBar label="Tokens today" used={u.dailyUsage.tokenCount} limit={q?.dailyTokenLimit} />
        </>
      ) : null}
      {u?.monthlyUsage ? (
        <>
          <h3>
            This month since {formatTime(u.monthlyUsage.windowStart)} (resets on day {u.monthlyUsage.resetDay})
          </h3>
          <UsageBar label="Requests this month" used={u.monthlyUsage.requestCount} limit={q?.monthlyRequestLimit} />
          <UsageBar label="Tokens this month" used={u.monthlyUsage.tokenCount} limit={q?.monthlyTokenLimit} />
        </>
      ) : null}
      {q?.requestsPerMinuteLimit ? (
        <p className="muted">Rate limit: {formatCountOf(q.requestsPerMinuteLimit, 'request')} per minute.</p>
      ) : null}
      {props.children}
      {props.canManage ? (
        <QuotaForm projectId={props.projectId} organizationId={props.organizationId} quota={quota.data ?? null} />
      ) : null}
    </section>
  );
}
