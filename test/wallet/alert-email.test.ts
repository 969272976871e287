// Balance-alert e-mails through a real SMTP server (smtp-server on 127.0.0.1): to the organization's Admins only,
// exactly once per crossing even when the job runs again, at most maxDailyAlerts a day, and a recorded
// "not configured" without SMTP_URL; our fixed text, never the Admin-written messageTemplate (review of 2026-11-27,
// second round).
import { asc, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { walletAlertDeliveries, walletBalanceAlerts } from '../../shared/db/schema/index.js';
import { mailerFor } from '../../shared/mail/mailer.js';
import { deliverAlert } from '../../shared/wallet/alert-delivery.js';
import { webhookClient } from '../../shared/wallet/alert-webhook.js';
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { recharge } from '../support/gateway.js';
import { createHarness, type Harness, startProcess, waitUntil } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { aMember, anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';
import { charge, spend } from '../support/wallet-spend.js';
import { type SmtpCapture, startSmtpCapture } from './smtp-capture.js';

let h: Harness;
let smtp: SmtpCapture;
let receiver: LoopbackServer;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  receiver = await startLoopbackServer((_req, res) => res.end('ok'));
  h = await createHarness({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'ockhub alerts <alerts@test.ockhub.local>',
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    // Both shares off, so concurrent deliveries of one organization's alerts race for the daily cap
    // (test/wallet/alert-fairness holds the shares).
    ALERTS_PER_ORGANIZATION: '0',
    ALERTS_PER_ACCOUNT: '0',
    ALERT_WEBHOOK_RETRY_MS: '20',
  });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  await receiver.close();
});
beforeEach(() => {
  smtp.messages.length = 0;
  smtp.refuse = false;
  receiver.requests.length = 0;
});

const deps = () => ({ mailer: mailerFor(h.config), webhook: webhookClient(h.config) });
const alertsOf = (orgId: string) =>
  h.ctx.db.select().from(walletBalanceAlerts).where(eq(walletBalanceAlerts.organizationId, orgId));
const emailAttemptsOf = async (alertId: string) =>
  (
    await h.ctx.db
      .select()
      .from(walletAlertDeliveries)
      .where(eq(walletAlertDeliveries.alertId, alertId))
      .orderBy(asc(walletAlertDeliveries.attempt))
  ).filter((a) => a.channel === 'email');

/** The message's text with quoted-printable soft line breaks joined. */
const textOf = (raw: string | undefined) => (raw ?? '').replace(/=\r?\n/g, '');

async function organizationWithAlerts(
  balance: number,
  settings: Record<string, unknown> = {},
  name?: string,
): Promise<TestOrg> {
  const org = await anOrganization(h, undefined, name);
  const headers = inOrg(org.admin, org.id);
  await recharge(h, org, balance);
  await h.http.put('/api/organization/wallet/alerts').set(headers).send(settings).expect(200);
  return org;
}

describe('balance alert e-mails', () => {
  it('sends exactly one e-mail to the Admins and one signed webhook for a crossing, from a real worker', async () => {
    const org = await organizationWithAlerts(10.2, { webhookUrl: `${receiver.origin}/hook`, thresholds: [10, 1] });
    const secondAdmin = await aMember(h, org, 'Admin');
    const member = await aMember(h, org, 'Member');
    await Promise.all(Array.from({ length: 20 }, () => charge(h.ctx, org.id, usd('0.05'), { cost: usd('0.02') })));
    await writeLedger(h.ctx, org.id);
    const worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'alerts' } });
    try {
      await waitUntil(async () => {
        const [alert] = await alertsOf(org.id);
        return alert?.emailStatus === 'sent' && alert.webhookStatus === 'sent';
      });
    } finally {
      await worker.stop();
    }
    expect(smtp.messages).toHaveLength(1);
    const [mail] = smtp.messages;
    expect(mail?.to.sort()).toEqual([org.admin.email, secondAdmin.email].map((e) => e.toLowerCase()).sort());
    expect(mail?.to).not.toContain(member.email.toLowerCase());
    expect(mail?.from).toBe('alerts@test.ockhub.local');
    expect(mail?.raw).toMatch(/Subject: \[ockhub\] Wallet balance below 10 USD/);
    expect(mail?.raw).toContain('Balance: 9.98 USD'); // the settled balance right after the crossing
    expect(receiver.requests).toHaveLength(1);
    const secret = (await h.http.get('/api/organization/wallet/alerts').set(inOrg(org.admin, org.id))).body.data
      .webhookSecret;
    const payload = new Webhook(secret).verify(
      receiver.requests[0]?.body ?? '',
      receiver.requests[0]?.headers as Record<string, string>,
    );
    expect(payload).toMatchObject({ type: 'wallet.balance_low', balance: 9.98, threshold: 10, currency: 'USD' });
    const settings = await h.http.get('/api/organization/wallet/alerts').set(inOrg(org.admin, org.id));
    expect(settings.body.data.lastAlertTime).toEqual(expect.any(String));
  }, 60_000);

  it('sends at most maxDailyAlerts e-mails a day; the webhook is not capped', async () => {
    const org = await organizationWithAlerts(11, { maxDailyAlerts: 2, webhookUrl: `${receiver.origin}/hook` });
    await spend(h.ctx, org.id, usd('10.5')); // crosses 10, 5, 3 and 1
    const alerts = await alertsOf(org.id);
    expect(alerts).toHaveLength(4);
    const results = await Promise.all(alerts.map((a) => deliverAlert(h.ctx, a.id, deps(), { lastAttempt: false })));
    const emails = results.map((r) => ('email' in r ? r.email : 'missing')).sort();
    expect(emails).toEqual(['capped', 'capped', 'sent', 'sent']);
    expect(smtp.messages).toHaveLength(2);
    expect(receiver.requests).toHaveLength(4);
  });

  it('retries a refused e-mail on the next run of the job and never sends an e-mail twice', async () => {
    const org = await organizationWithAlerts(10.5);
    await spend(h.ctx, org.id, usd('1'));
    const [alert] = await alertsOf(org.id);
    const alertId = alert?.id ?? '';
    smtp.refuse = true;
    await expect(deliverAlert(h.ctx, alertId, deps(), { lastAttempt: false })).rejects.toThrow(/451/);
    smtp.refuse = false;
    expect(await deliverAlert(h.ctx, alertId, deps(), { lastAttempt: false })).toEqual({
      email: 'sent',
      webhook: 'disabled',
    });
    await deliverAlert(h.ctx, alertId, deps(), { lastAttempt: false });
    expect(smtp.messages).toHaveLength(1);
    expect((await emailAttemptsOf(alertId)).map((a) => [a.attempt, a.succeeded])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('marks the e-mail failed when the last attempt of the job is refused', async () => {
    const org = await organizationWithAlerts(10.5);
    await spend(h.ctx, org.id, usd('1'));
    const [alert] = await alertsOf(org.id);
    smtp.refuse = true;
    expect(await deliverAlert(h.ctx, alert?.id ?? '', deps(), { lastAttempt: true })).toMatchObject({
      email: 'failed',
    });
  });

  it('records that e-mail is not configured when SMTP_URL is unset, and sends nothing when alerts are off', async () => {
    const org = await organizationWithAlerts(10.5);
    await spend(h.ctx, org.id, usd('1'));
    const [alert] = await alertsOf(org.id);
    const unconfigured = { mailer: undefined, webhook: webhookClient(h.config) };
    expect(await deliverAlert(h.ctx, alert?.id ?? '', unconfigured, { lastAttempt: false })).toMatchObject({
      email: 'not_configured',
    });
    expect((await emailAttemptsOf(alert?.id ?? ''))[0]).toMatchObject({
      succeeded: false,
      error: expect.stringMatching(/not configured/),
    });

    const quiet = await organizationWithAlerts(10.5, { emailAlertEnabled: false });
    await spend(h.ctx, quiet.id, usd('1'));
    const [silent] = await alertsOf(quiet.id);
    expect(await deliverAlert(h.ctx, silent?.id ?? '', deps(), { lastAttempt: false })).toEqual({
      email: 'disabled',
      webhook: 'disabled',
    });
    expect(smtp.messages).toHaveLength(0);
  });

  it('sends a test alert through both channels without counting it against the daily cap', async () => {
    const org = await organizationWithAlerts(3, { maxDailyAlerts: 0, webhookUrl: `${receiver.origin}/hook` });
    const res = await h.http.post('/api/organization/wallet/alerts/test').set(inOrg(org.admin, org.id)).expect(202);
    expect(await deliverAlert(h.ctx, res.body.data.alertId, deps(), { lastAttempt: false })).toEqual({
      email: 'sent',
      webhook: 'sent',
    });
    expect(smtp.messages[0]?.raw).toMatch(/Subject: \[ockhub\] Test balance alert/);
    expect(JSON.parse(receiver.requests[0]?.body ?? '{}')).toMatchObject({ test: true, balance: 3, threshold: 10 });
    const history = await h.http.get('/api/organization/wallet/alerts/history').set(inOrg(org.admin, org.id));
    expect(history.body.data[0]).toMatchObject({
      kind: 'test',
      email: { status: 'sent' },
      webhook: { status: 'sent' },
      attempts: [
        expect.objectContaining({ channel: 'email', attempt: 1, succeeded: true }),
        expect.objectContaining({ channel: 'webhook', attempt: 1, succeeded: true, statusCode: 200 }),
      ],
    });
  });

  it('e-mails our fixed text with the figures and the organization name, never the messageTemplate', async () => {
    // No address is verified: an Admin could list anyone as an Admin and write them what it likes through our mail.
    const template = 'URGENT: pay the overdue invoice at https://pay.example/{threshold} today';
    const org = await organizationWithAlerts(
      10.5,
      { messageTemplate: template, webhookUrl: `${receiver.origin}/hook` },
      'Tulip Fields Ltd',
    );
    await spend(h.ctx, org.id, usd('1'));
    const [alert] = await alertsOf(org.id);
    expect(await deliverAlert(h.ctx, alert?.id ?? '', deps(), { lastAttempt: false })).toEqual({
      email: 'sent',
      webhook: 'sent',
    });
    const text = textOf(smtp.messages[0]?.raw);
    expect(text).toContain('The wallet balance of your ockhub organization has fallen below 10 USD.');
    expect(text).toContain(`Organization: Tulip Fields Ltd (${org.id})`);
    expect(text).toContain('Balance: 9.5 USD');
    expect(text).toContain('Threshold: 10 USD');
    expect(text).not.toMatch(/URGENT|invoice|pay\.example/);
    // The webhook, the template's channel in seed 03, still carries it.
    expect(JSON.parse(receiver.requests[0]?.body ?? '{}').message).toBe(
      'URGENT: pay the overdue invoice at https://pay.example/10 today',
    );

    const test = await h.http.post('/api/organization/wallet/alerts/test').set(inOrg(org.admin, org.id)).expect(202);
    await deliverAlert(h.ctx, test.body.data.alertId, deps(), { lastAttempt: false });
    const testText = textOf(smtp.messages[1]?.raw);
    expect(testText).toContain('This is a test of the balance alerts of your ockhub organization.');
    expect(testText).not.toMatch(/URGENT|invoice|pay\.example/);
  });
});
