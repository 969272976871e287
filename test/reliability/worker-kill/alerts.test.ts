// alerts: the worker is SIGKILLed after the balance alert's e-mail went out, while its webhook waits for the
// receiver's answer. The code promises one alert per threshold crossing, an e-mail sent once (its channel is
// final before the webhook starts), and an at-least-once webhook: the replacement sends it again with the same
// `webhook-id` (Standard Webhooks), which receivers use to drop the repeat.
import { asc, eq } from 'drizzle-orm';
import { walletAlertDeliveries, walletBalanceAlerts } from '../../../shared/db/schema/index.js';
import { writeLedger } from '../../../shared/wallet/ledger-writer.js';
import { recharge } from '../../support/gateway.js';
import { createHarness, type Harness, type WorkerProcess, waitUntil } from '../../support/harness.js';
import { type HoldingServer, startHoldingServer } from '../../support/held-requests.js';
import { anOrganization, inOrg } from '../../support/org-fixtures.js';
import { usd } from '../../support/wallet-factory.js';
import { charge } from '../../support/wallet-spend.js';
import { type SmtpCapture, startSmtpCapture } from '../../wallet/smtp-capture.js';
import { recordFigures, secondsBetween } from '../support/figures.js';
import { FAST_STALL_RECOVERY, killMidJob, startQueueWorker } from '../support/worker-kill.js';

let h: Harness;
let smtp: SmtpCapture;
let receiver: HoldingServer;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  receiver = await startHoldingServer((_req, res) => res.writeHead(204).end());
  h = await createHarness({
    ...FAST_STALL_RECOVERY,
    SMTP_URL: smtp.url,
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    ALERT_WEBHOOK_RETRY_MS: '50',
  });
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await receiver?.close();
  await smtp?.close();
});

it('keeps one alert and one e-mail per crossing when the worker is SIGKILLed mid-webhook', async () => {
  const org = await anOrganization(h);
  const headers = inOrg(org.admin, org.id);
  await recharge(h, org, 10.2);
  await h.http
    .put('/api/organization/wallet/alerts')
    .set(headers)
    .send({ webhookUrl: `${receiver.origin}/hook`, thresholds: [10, 1] })
    .expect(200);
  // 20 concurrent settlements of 0.02 take 10.2 to 9.8: threshold 10 is crossed once.
  await Promise.all(Array.from({ length: 20 }, () => charge(h.ctx, org.id, usd('0.05'), { cost: usd('0.02') })));
  await writeLedger(h.ctx, org.id);
  const alerts = await h.ctx.db
    .select()
    .from(walletBalanceAlerts)
    .where(eq(walletBalanceAlerts.organizationId, org.id));
  expect(alerts).toHaveLength(1);
  const alertId = alerts[0]?.id as string;

  worker = await startQueueWorker(h.env, 'alerts');
  const killed = await killMidJob(h, worker, 'alerts', {
    midJob: async () => receiver.gate.held === 1 && smtp.messages.length === 1,
    release: () => {
      receiver.gate.holding = false;
    },
  });
  worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');

  const alert = await waitUntil(async () => {
    const [row] = await h.ctx.db.select().from(walletBalanceAlerts).where(eq(walletBalanceAlerts.id, alertId));
    return row?.webhookStatus === 'sent' ? row : undefined;
  }, 30_000);
  const deliveredAt = Date.now();
  expect(alert.emailStatus).toBe('sent');
  const job = await h.ctx.queues.queue('alerts').getJob(`balance-alert-${alertId}`);
  await waitUntil(async () => (await job?.getState()) === 'completed');

  expect(smtp.messages).toHaveLength(1);
  expect(receiver.requests).toHaveLength(2);
  const ids = receiver.requests.map((r) => r.headers['webhook-id']);
  expect(ids).toEqual([`msg_${alertId}`, `msg_${alertId}`]);
  expect(receiver.requests[1]?.body).toBe(receiver.requests[0]?.body);
  const attempts = await h.ctx.db
    .select()
    .from(walletAlertDeliveries)
    .where(eq(walletAlertDeliveries.alertId, alertId))
    .orderBy(asc(walletAlertDeliveries.attemptedAt));
  // The killed attempt never got an answer, so it was never recorded.
  expect(attempts.map((a) => [a.channel, a.succeeded])).toEqual([
    ['email', true],
    ['webhook', true],
  ]);

  recordFigures('SIGKILL mid-job: alerts', {
    jobsAtRisk: killed.inFlight,
    jobsLost: alert.webhookStatus === 'sent' ? 0 : 1,
    doubleEffects: alerts.length - 1 + (smtp.messages.length - 1),
    redeliveries: receiver.requests.length - new Set(ids).size,
    requeueSeconds: secondsBetween(killed.killedAt, deliveredAt),
  });
});
