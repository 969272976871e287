// Balance-alert webhooks against a real HTTP receiver on 127.0.0.1: one signed POST per crossing, delivered by a
// real worker process; each run of a delivery makes one attempt and answers the pause before the next, and the last
// failed attempt records the webhook as failed (the retries through a real worker: alert-webhook-retries.test.ts).
import { asc, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { walletAlertDeliveries, walletAlertSettings, walletBalanceAlerts } from '../../shared/db/schema/index.js';
import { deliverAlert } from '../../shared/wallet/alert-delivery.js';
import { getAlertSettings, updateAlertSettings } from '../../shared/wallet/alert-settings.js';
import { webhookClient } from '../../shared/wallet/alert-webhook.js';
import { requestTestAlert } from '../../shared/wallet/balance-alerts.js';
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { createHarness, type Harness, startProcess, waitUntil } from '../support/harness.js';
import { createUser } from '../support/identity.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { fundedWallet, usd } from '../support/wallet-factory.js';
import { charge, spend } from '../support/wallet-spend.js';

let h: Harness;
let receiver: LoopbackServer;
let answer: () => number = () => 204;

beforeAll(async () => {
  h = await createHarness({
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    ALERT_WEBHOOK_ATTEMPTS: '3',
    ALERT_WEBHOOK_RETRY_MS: '40',
  });
  receiver = await startLoopbackServer((_req, res) => {
    res.statusCode = answer();
    res.end();
  });
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});
beforeEach(() => {
  receiver.requests.length = 0;
  answer = () => 204;
});

const deps = () => ({ mailer: undefined, webhook: webhookClient(h.config) });
const outbound = () => webhookClient(h.config);

async function walletWithWebhook(amount: string, thresholds = [usd('10'), usd('5')]) {
  const org = await fundedWallet(h, amount);
  await updateAlertSettings({ db: h.ctx.db, outbound: outbound() }, org, {
    webhookUrl: `${receiver.origin}/hooks/wallet?org=${org}`,
    customHeaders: { 'x-team': 'billing' },
    messageTemplate: 'Balance below {threshold} {currency}',
    thresholds,
    emailAlertEnabled: false,
  });
  return org;
}

const alertsOf = (org: string) =>
  h.ctx.db.select().from(walletBalanceAlerts).where(eq(walletBalanceAlerts.organizationId, org));
/** Runs the delivery as its job would, each run once the one before asked for its next webhook attempt. */
async function runsUntilFinal(alertId: string) {
  const results = [];
  for (;;) {
    const result = await deliverAlert(h.ctx, alertId, deps(), { lastAttempt: false });
    results.push(result);
    if (!('retryWebhookInMs' in result) || results.length > 10) return results;
  }
}
const attemptsOf = (alertId: string) =>
  h.ctx.db
    .select()
    .from(walletAlertDeliveries)
    .where(eq(walletAlertDeliveries.alertId, alertId))
    .orderBy(asc(walletAlertDeliveries.attempt));

describe('balance alert webhooks', () => {
  it('sends one signed webhook per threshold crossing, not one per request, through a real worker', async () => {
    const org = await walletWithWebhook('10.5');
    // 40 concurrent requests of 0.05 take 10.5 to 8.5: threshold 10 is crossed exactly once
    await Promise.all(Array.from({ length: 40 }, () => charge(h.ctx, org, usd('0.1'), { cost: usd('0.05') })));
    await writeLedger(h.ctx, org);
    const alerts = await alertsOf(org);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ kind: 'balance', threshold: usd('10') });
    expect(await h.ctx.queues.queue('alerts').getJobCountByTypes('waiting', 'prioritized', 'delayed', 'active')).toBe(
      1,
    );

    const worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'alerts' } });
    try {
      await waitUntil(async () => receiver.requests.length >= 1);
      await waitUntil(async () => (await alertsOf(org))[0]?.webhookStatus === 'sent');
    } finally {
      await worker.stop();
    }
    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    const { webhookSecret } = await getAlertSettings(h.ctx.db, org);
    expect(webhookSecret).toMatch(/^whsec_/);
    const verified = new Webhook(webhookSecret).verify(request?.body ?? '', request?.headers as Record<string, string>);
    expect(verified).toEqual({
      type: 'wallet.balance_low',
      organizationId: org,
      balance: 9.95,
      currency: 'USD',
      threshold: 10,
      message: 'Balance below 10 USD',
      occurredAt: alerts[0]?.occurredAt.toISOString(),
    });
    expect(request?.headers['x-team']).toBe('billing');
    expect(request?.headers['webhook-id']).toBe(`msg_${alerts[0]?.id}`);
    expect(request?.headers['content-type']).toBe('application/json');
  }, 60_000);

  it('raises one alert per threshold when one consumption crosses several', async () => {
    const org = await walletWithWebhook('12', [usd('10'), usd('5'), usd('1')]);
    await spend(h.ctx, org, usd('8'));
    const thresholds = (await alertsOf(org)).map((a) => a.threshold).sort();
    expect(thresholds).toEqual([usd('10'), usd('5')].sort());
    await spend(h.ctx, org, usd('0.5'));
    expect(await alertsOf(org)).toHaveLength(2);
  });

  it('makes one attempt per run, answers the growing pause before the next, and records the last as failed', async () => {
    answer = () => 503;
    const org = await walletWithWebhook('10');
    await spend(h.ctx, org, usd('1'));
    const [alert] = await alertsOf(org);
    const alertId = alert?.id ?? '';
    const results = await runsUntilFinal(alertId);
    // ALERT_WEBHOOK_RETRY_MS 40: 40 ms doubling per attempt, times a random 1 to 2.
    expect(results).toEqual([
      { email: 'disabled', webhook: 'sending', retryWebhookInMs: expect.any(Number) },
      { email: 'disabled', webhook: 'sending', retryWebhookInMs: expect.any(Number) },
      { email: 'disabled', webhook: 'failed' },
    ]);
    const pauses = results.map((r) => ('retryWebhookInMs' in r ? r.retryWebhookInMs : undefined));
    expect(pauses[0]).toBeGreaterThanOrEqual(40);
    expect(pauses[0]).toBeLessThanOrEqual(80);
    expect(pauses[1]).toBeGreaterThanOrEqual(80);
    expect(pauses[1]).toBeLessThanOrEqual(160);
    expect((await attemptsOf(alertId)).map((a) => [a.channel, a.attempt, a.statusCode, a.succeeded])).toEqual([
      ['webhook', 1, 503, false],
      ['webhook', 2, 503, false],
      ['webhook', 3, 503, false],
    ]);
    expect(receiver.requests).toHaveLength(3);
    // a retried job does not send again once the webhook reached a final state
    await deliverAlert(h.ctx, alertId, deps(), { lastAttempt: false });
    expect(receiver.requests).toHaveLength(3);
  });

  it('signs with the old secret too for 24 hours after a rotation, so a receiver changes its secret without losing alerts', async () => {
    const org = await walletWithWebhook('10');
    const before = (await getAlertSettings(h.ctx.db, org)).webhookSecret;
    const rotated = await updateAlertSettings({ db: h.ctx.db, outbound: outbound() }, org, {
      rotateWebhookSecret: true,
    });
    expect(rotated.webhookSecret).not.toBe(before);
    expect(rotated.previousWebhookSecret).toBe(before);
    const hours = ((rotated.previousWebhookSecretUntil?.getTime() ?? 0) - rotated.updatedAt.getTime()) / 3_600_000;
    expect(hours).toBeCloseTo(24, 3);

    const delivered = async () => {
      receiver.requests.length = 0;
      const { alertId } = await requestTestAlert(h.ctx, org, (await createUser(h)).accountId);
      expect((await runsUntilFinal(alertId)).at(-1)).toMatchObject({ webhook: 'sent' });
      const [request] = receiver.requests;
      return { body: request?.body ?? '', headers: request?.headers as Record<string, string> };
    };
    const verifies = (secret: string, r: { body: string; headers: Record<string, string> }) => {
      try {
        new Webhook(secret).verify(r.body, r.headers);
        return true;
      } catch {
        return false;
      }
    };
    const during = await delivered();
    expect(during.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    expect(verifies(rotated.webhookSecret, during)).toBe(true);
    expect(verifies(before, during)).toBe(true);

    // Once the 24 hours are over, only the new secret signs.
    await h.ctx.db
      .update(walletAlertSettings)
      .set({ previousWebhookSecretUntil: new Date(Date.now() - 1_000) })
      .where(eq(walletAlertSettings.organizationId, org));
    const after = await delivered();
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifies(rotated.webhookSecret, after)).toBe(true);
    expect(verifies(before, after)).toBe(false);
  });

  it('records a connection failure as an attempt with its error', async () => {
    const org = await walletWithWebhook('10');
    const closed = await startLoopbackServer(() => undefined);
    const url = `${closed.origin}/gone`;
    await closed.close();
    await updateAlertSettings({ db: h.ctx.db, outbound: outbound() }, org, { webhookUrl: url });
    const { alertId } = await requestTestAlert(h.ctx, org, (await createUser(h)).accountId);
    expect((await runsUntilFinal(alertId)).at(-1)).toMatchObject({ webhook: 'failed' });
    const attempts = await attemptsOf(alertId);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.statusCode === null && /127\.0\.0\.1/.test(a.error ?? ''))).toBe(true);
  });
});
