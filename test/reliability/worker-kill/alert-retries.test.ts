// alerts: a webhook's retries are runs of the job, its pauses spent in the delayed set. A worker SIGKILLed while a
// balance alert's webhook waits for its next attempt sends nothing again; one killed during a retried attempt makes
// that attempt again (same number, same webhook-id: the at-least-once the docs allow), and the e-mail, which went
// out in the first run, never again.
import { asc, eq } from 'drizzle-orm';
import { walletAlertDeliveries, walletBalanceAlerts } from '../../../shared/db/schema/index.js';
import { writeLedger } from '../../../shared/wallet/ledger-writer.js';
import { recharge } from '../../support/gateway.js';
import { createHarness, type Harness, type WorkerProcess, waitUntil } from '../../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../../support/loopback-server.js';
import { anOrganization, inOrg } from '../../support/org-fixtures.js';
import { usd } from '../../support/wallet-factory.js';
import { charge } from '../../support/wallet-spend.js';
import { type SmtpCapture, startSmtpCapture } from '../../wallet/smtp-capture.js';
import { recordFigures, secondsBetween } from '../support/figures.js';
import { FAST_STALL_RECOVERY, killMidJob, startQueueWorker } from '../support/worker-kill.js';

type Reply = 'fail' | 'hold' | 'ok';

let h: Harness;
let smtp: SmtpCapture;
let receiver: LoopbackServer;
let worker: WorkerProcess | undefined;
/** Per receiver path, what its requests get in turn (then `ok`): 503, no answer at all, or 204. */
const script = new Map<string, Reply[]>();
let held = 0;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  receiver = await startLoopbackServer((req, res) => {
    const reply = script.get(req.url ?? '')?.shift() ?? 'ok';
    if (reply === 'hold') held++;
    else res.writeHead(reply === 'fail' ? 503 : 204).end();
  });
  h = await createHarness({
    ...FAST_STALL_RECOVERY,
    SMTP_URL: smtp.url,
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    // Pauses of 3 to 6 s before the second attempt: long enough to kill the worker while the job waits.
    ALERT_WEBHOOK_RETRY_MS: '3000',
  });
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await receiver?.close();
  await smtp?.close();
});

/** A balance alert (threshold 10 crossed once) whose webhook's requests get `replies`, and its job's id. */
async function alertWithWebhook(replies: Reply[]) {
  const org = await anOrganization(h);
  const path = `/hooks/${org.id}`;
  script.set(path, replies);
  await recharge(h, org, 10.2);
  await h.http
    .put('/api/organization/wallet/alerts')
    .set(inOrg(org.admin, org.id))
    .send({ webhookUrl: `${receiver.origin}${path}`, thresholds: [10] })
    .expect(200);
  await charge(h.ctx, org.id, usd('0.5'), { cost: usd('0.3') });
  await writeLedger(h.ctx, org.id);
  const [alert] = await h.ctx.db
    .select()
    .from(walletBalanceAlerts)
    .where(eq(walletBalanceAlerts.organizationId, org.id));
  if (!alert) throw new Error('no alert raised');
  return { org, path, alertId: alert.id, jobId: `balance-alert-${alert.id}` };
}

const attemptsOf = async (alertId: string) =>
  (
    await h.ctx.db
      .select()
      .from(walletAlertDeliveries)
      .where(eq(walletAlertDeliveries.alertId, alertId))
      .orderBy(asc(walletAlertDeliveries.attemptedAt))
  ).map((a) => [a.channel, a.attempt, a.statusCode, a.succeeded]);

/**
 * Waits for the webhook's final state and the job's completion; checks that the webhook was delivered on its second
 * attempt (the first got 503) with one message id throughout and the e-mail sent once; answers what was sent.
 */
async function deliveredOnce(a: Awaited<ReturnType<typeof alertWithWebhook>>) {
  const alert = await waitUntil(async () => {
    const [row] = await h.ctx.db.select().from(walletBalanceAlerts).where(eq(walletBalanceAlerts.id, a.alertId));
    return row?.webhookStatus === 'sent' || row?.webhookStatus === 'failed' ? row : undefined;
  }, 60_000);
  const deliveredAt = Date.now();
  await waitUntil(async () => (await h.ctx.queues.queue('alerts').getJobState(a.jobId)) === 'completed', 30_000);
  const requests = receiver.requests.filter((r) => r.url === a.path);
  const mails = smtp.messages.filter((m) => m.to.includes(a.org.admin.email.toLowerCase()));
  expect(alert).toMatchObject({ emailStatus: 'sent', webhookStatus: 'sent' });
  expect(mails).toHaveLength(1);
  expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([`msg_${a.alertId}`]));
  expect(new Set(requests.map((r) => r.body)).size).toBe(1);
  // A cut attempt got no answer, so it was never recorded: its repeat has its number.
  expect(await attemptsOf(a.alertId)).toEqual([
    ['email', 1, null, true],
    ['webhook', 1, 503, false],
    ['webhook', 2, 204, true],
  ]);
  return { alert, deliveredAt, requests, mails };
}

/** SIGKILLs the worker once `midJob` holds, lets a replacement finish the delivery, checks it and records figures. */
async function killedWhile(
  a: Awaited<ReturnType<typeof alertWithWebhook>>,
  figures: string,
  midJob: () => Promise<boolean>,
) {
  worker ??= await startQueueWorker(h.env, 'alerts');
  const killed = await killMidJob(h, worker, 'alerts', { midJob, release: () => undefined });
  worker = killed.replacement;
  expect(killed.signal).toBe('SIGKILL');
  const { alert, deliveredAt, requests, mails } = await deliveredOnce(a);
  recordFigures(figures, {
    jobsAtRisk: 1,
    jobsLost: alert.webhookStatus === 'sent' ? 0 : 1,
    doubleEffects: mails.length - 1,
    redeliveries: requests.length - 2,
    requeueSeconds: secondsBetween(killed.killedAt, deliveredAt),
  });
  return { inFlight: killed.inFlight, requests };
}

it('sends nothing again when the worker is SIGKILLed while the webhook waits for its next attempt', async () => {
  const a = await alertWithWebhook(['fail']);
  // The first attempt failed and the job waits in the delayed set: the worker holds nothing of it.
  const { inFlight, requests } = await killedWhile(
    a,
    'SIGKILL in a webhook pause: alerts',
    async () =>
      (await attemptsOf(a.alertId)).length === 2 &&
      (await h.ctx.queues.queue('alerts').getJobState(a.jobId)) === 'delayed',
  );
  expect(inFlight).toBe(0);
  expect(requests).toHaveLength(2);
});

it('makes a retried attempt cut by SIGKILL again under its number, the e-mail not again', async () => {
  const heldBefore = held;
  const a = await alertWithWebhook(['fail', 'hold']);
  // The second attempt is on its way and gets no answer.
  const { inFlight, requests } = await killedWhile(a, 'SIGKILL mid-retry: alerts', async () => held > heldBefore);
  expect(inFlight).toBe(1);
  // 503, the cut attempt (sent, never answered), and its repeat.
  expect(requests).toHaveLength(3);
});
