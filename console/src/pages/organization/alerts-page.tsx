// Balance alerts of the organization (its Admins): who is told and how (e-mail, a signed webhook with its own
// headers), the message, the thresholds; "send a test alert" and what became of every alert sent.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, apiData, type Envelope } from '../../api/http.js';
import { formatMoney, formatTime } from '../../format.js';
import { DataTable } from '../../ui/data-table.js';
import { Field } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { FormError, Loading, Notice, StatusBadge } from '../../ui/status.js';
import { OrgTabs, WithOrganization } from './org-tabs.js';
import { type AlertSettings, useAlertSettings } from './wallet-api.js';

type Alert = {
  id: string;
  kind: 'balance' | 'test';
  threshold: number;
  balance: number;
  currency: string;
  occurredAt: string;
  email: { status: string; sentAt?: string };
  webhook: { status: string; deliveredAt?: string };
  attempts: {
    channel: string;
    attempt: number;
    succeeded: boolean;
    statusCode?: number;
    error?: string;
    attemptedAt: string;
  }[];
};

const headersText = (h: Record<string, string> | undefined) =>
  Object.entries(h ?? {})
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

function parseHeaders(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf(':');
    if (line.trim() && at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

function SettingsForm({ organizationId, settings }: { organizationId: string; settings: AlertSettings }) {
  const client = useQueryClient();
  const [email, setEmail] = useState(settings.emailAlertEnabled);
  const [maxDaily, setMaxDaily] = useState(String(settings.maxDailyAlerts));
  const [webhookUrl, setWebhookUrl] = useState(settings.webhookUrl ?? '');
  const [headers, setHeaders] = useState(headersText(settings.customHeaders));
  const [template, setTemplate] = useState(settings.messageTemplate);
  const [thresholds, setThresholds] = useState(settings.thresholds.join(', '));
  const [rotate, setRotate] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      apiData<AlertSettings>('/api/organization/wallet/alerts', {
        method: 'PUT',
        organizationId,
        body: {
          emailAlertEnabled: email,
          maxDailyAlerts: Number(maxDaily),
          webhookUrl: webhookUrl.trim(),
          customHeaders: parseHeaders(headers),
          messageTemplate: template,
          thresholds: thresholds
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
          ...(rotate ? { rotateWebhookSecret: true } : {}),
        },
      }),
    onSuccess: (saved) => {
      setRotate(false);
      client.setQueryData(['alert-settings', organizationId], saved);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="stack panel" onSubmit={submit} aria-label="Alert settings">
      <h2>Settings</h2>
      <label className="row">
        <input type="checkbox" checked={email} onChange={(e) => setEmail(e.target.checked)} /> E-mail the organization's
        Admins
      </label>
      <Field label="At most this many alerts a day">
        {(p) => (
          <input
            {...p}
            type="number"
            min={0}
            max={1000}
            value={maxDaily}
            onChange={(e) => setMaxDaily(e.target.value)}
          />
        )}
      </Field>
      <Field label="Webhook URL" hint="Empty: no webhook. Deliveries are signed (Standard Webhooks).">
        {(p) => <input {...p} type="url" value={webhookUrl} onChange={(e) => setWebhookUrl(e.target.value)} />}
      </Field>
      <Field label="Webhook headers" hint="One per line: Name: value">
        {(p) => <textarea {...p} rows={3} value={headers} onChange={(e) => setHeaders(e.target.value)} />}
      </Field>
      <Field label="Message" hint="{threshold}, {balance} and {currency} are filled in.">
        {(p) => <textarea {...p} rows={2} value={template} onChange={(e) => setTemplate(e.target.value)} />}
      </Field>
      <Field label="Thresholds" hint="Comma-separated amounts; an alert when the balance falls below one.">
        {(p) => <input {...p} value={thresholds} onChange={(e) => setThresholds(e.target.value)} />}
      </Field>
      {settings.webhookSecret ? (
        <p>
          Signing secret: <code className="wrap-anywhere">{settings.webhookSecret}</code>{' '}
          <label>
            <input type="checkbox" checked={rotate} onChange={(e) => setRotate(e.target.checked)} /> replace it when
            saving
          </label>
        </p>
      ) : null}
      {settings.previousWebhookSecretUntil ? (
        <p className="muted">
          The secret it replaced also signs deliveries until {formatTime(settings.previousWebhookSecretUntil)}, so a
          receiver still checking with it goes on accepting them while you give it the new one.
        </p>
      ) : null}
      <FormError error={save.error} />
      {save.isSuccess ? <Notice>Settings saved.</Notice> : null}
      <div>
        <button type="submit" disabled={save.isPending}>
          Save settings
        </button>
      </div>
    </form>
  );
}

function History({ organizationId, watching }: { organizationId: string; watching: string | undefined }) {
  const history = useQuery({
    queryKey: ['alert-history', organizationId],
    queryFn: () =>
      api<Envelope<Alert[]>>('/api/organization/wallet/alerts/history', { organizationId, query: { size: 10 } }),
    // While a test alert is on its way, look every second until both channels have an outcome.
    refetchInterval: (q) => {
      const sent = q.state.data?.data.find((a) => a.id === watching);
      const open = (s: string | undefined) => s === undefined || s === 'pending' || s === 'sending';
      return watching && (!sent || open(sent.email.status) || open(sent.webhook.status)) ? 1000 : false;
    },
  });
  const _rows = history.data?.data ?? [];
  return (
    <section className="panel">
      <h2>Alerts sent</h2>
      <FormError error={history.error} />
      <DataTable
        label="Alerts sent"
        columns={['When', 'Kind', { label: 'Balance', num: true }, 'E-mail', 'Webhook', 'Attempts']}
        rows={history.data?.data}
        empty="No alerts yet."
      >
        {(a) => (
          <tr key={a.id}>
            <td>{formatTime(a.occurredAt)}</td>
            <td>{a.kind}</td>
            <td className="num">{formatMoney(a.balance, a.currency)}</td>
            <td>
              <StatusBadge status={a.email.status} />
            </td>
            <td>
              <StatusBadge status={a.webhook.status} />
            </td>
            <td>
              {a.attempts.map((t) => (
                <div key={`${t.channel}-${t.attempt}`} className="muted">
                  {t.channel} #{t.attempt}: {t.succeeded ? 'ok' : 'failed'}
                  {t.statusCode ? ` (HTTP ${t.statusCode})` : ''}
                  {t.error ? ` — ${t.error}` : ''}
                </div>
              ))}
            </td>
          </tr>
        )}
      </DataTable>
    </section>
  );
}

function Alerts({ organizationId }: { organizationId: string }) {
  const client = useQueryClient();
  const settings = useAlertSettings(organizationId);
  const [watching, setWatching] = useState<string>();
  const test = useMutation({
    mutationFn: () =>
      apiData<{ alertId: string }>('/api/organization/wallet/alerts/test', { method: 'POST', organizationId }),
    onSuccess: ({ alertId }) => {
      setWatching(alertId);
      void client.invalidateQueries({ queryKey: ['alert-history', organizationId] });
    },
  });
  if (settings.isPending) return <Loading />;
  if (!settings.data) return <FormError error={settings.error} />;
  return (
    <>
      <SettingsForm key={organizationId} organizationId={organizationId} settings={settings.data} />
      <section className="panel">
        <h2>Test</h2>
        <p className="muted">Sends an alert now through every channel that is set up; its outcome appears below.</p>
        <button type="button" onClick={() => test.mutate()} disabled={test.isPending}>
          Send a test alert
        </button>
        <FormError error={test.error} />
        {test.data ? <Notice>Test alert queued.</Notice> : null}
      </section>
      <History organizationId={organizationId} watching={watching} />
    </>
  );
}

export function AlertsPage() {
  return (
    <Page title="Balance alerts">
      <OrgTabs />
      <WithOrganization>
        {(org) =>
          org.isAdmin ? (
            <Alerts key={org.id} organizationId={org.id} />
          ) : (
            <p>Only the organization's Admins manage alerts.</p>
          )
        }
      </WithOrganization>
    </Page>
  );
}
