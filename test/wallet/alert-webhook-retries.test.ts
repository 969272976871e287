// Balance-alert webhook retries through a real worker, against a loopback receiver and a real SMTP server: each
// attempt is one run of the alerts job, the pause between attempts is spent in the delayed set, and across the runs
// the e-mail goes out once, a 2xx ends the webhook, every attempt carries the same webhook-id and body, and the
// attempts are recorded.
import { asc, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { walletAlertDeliveries, walletBalanceAlerts } from '../../shared/db/schema/index.js';
import { writeLedger } from '../../shared/wallet/ledger-writer.js';
import { recharge } from '../support/gateway.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';
import { charge } from '../support/wallet-spend.js';
import { type SmtpCapture, startSmtpCapture } from './smtp-capture.js';

const ATTEMPTS = 4;

let h: Harness;
let smtp: SmtpCapture;
let receiver: LoopbackServer;
let worker: WorkerProcess;
/** Per receiver path: how many more requests answer 500 before it answers 204. */
const failuresLeft = new Map<string, number>();

beforeAll(async () => {
  smtp = await startSmtpCapture();
  receiver = await startLoopbackServer((req, res) => {
    const left = failuresLeft.get(req.url ?? '') ?? 0;
    failuresLeft.set(req.url ?? '', left - 1);
    res.writeHead(left > 0 ? 500 : 204).end();
  });
  h = await createHarness({
    SMTP_URL: smtp.url,
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    ALERT_WEBHOOK_ATTEMPTS: String(ATTEMPTS),
    ALERT_WEBHOOK_RETRY_MS: '100',
  });
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'alerts' } });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await receiver?.close();
  await smtp?.close();
});

/** An organization whose webhook answers 500 to its first `failures` requests, then 204. */
async function organizationFailing(failures: number): Promise<TestOrg & { path: string; secret: string }> {
  const org = await anOrganization(h);
  const path = `/hooks/${org.id}`;
  failuresLeft.set(path, failures);
  await recharge(h, org, 10.5);
  const settings = await h.http
    .put('/api/organization/wallet/alerts')
    .set(inOrg(org.admin, org.id))
    .send({ webhookUrl: `${receiver.origin}${path}`, thresholds: [10] })
    .expect(200);
  return { ...org, path, secret: settings.body.data.webhookSecret };
}

/** The organization's one alert once its webhook is final and its job completed, with what it sent. */
async function finished(org: TestOrg & { path: string }, jobId: (alertId: string) => string) {
  const alert = await waitUntil(async () => {
    const [row] = await h.ctx.db
      .select()
      .from(walletBalanceAlerts)
      .where(eq(walletBalanceAlerts.organizationId, org.id));
    return row && row.webhookStatus !== 'pending' && row.webhookStatus !== 'sending' ? row : undefined;
  }, 30_000);
  const queue = h.ctx.queues.queue('alerts');
  await waitUntil(async () => (await queue.getJobState(jobId(alert.id))) === 'completed');
  const attempts = await h.ctx.db
    .select()
    .from(walletAlertDeliveries)
    .where(eq(walletAlertDeliveries.alertId, alert.id))
    .orderBy(asc(walletAlertDeliveries.attemptedAt));
  const requests = receiver.requests.filter((r) => r.url === org.path);
  const mails = smtp.messages.filter((m) => m.to.includes(org.admin.email.toLowerCase()));
  return { alert, job: await queue.getJob(jobId(alert.id)), attempts, requests, mails };
}

it('delivers a webhook that failed twice exactly once, each attempt one run of the job, the e-mail once', async () => {
  const org = await organizationFailing(2);
  await charge(h.ctx, org.id, usd('1'), { cost: usd('0.6') }); // 10.5 to 9.9: threshold 10 crossed
  await writeLedger(h.ctx, org.id);

  const { alert, job, attempts, requests, mails } = await finished(org, (id) => `balance-alert-${id}`);
  expect(alert).toMatchObject({ kind: 'balance', emailStatus: 'sent', webhookStatus: 'sent' });
  expect(alert.webhookDeliveredAt).toBeInstanceOf(Date);
  expect(attempts.map((a) => [a.channel, a.attempt, a.statusCode, a.succeeded])).toEqual([
    ['email', 1, null, true],
    ['webhook', 1, 500, false],
    ['webhook', 2, 500, false],
    ['webhook', 3, 204, true],
  ]);
  // Three requests, one 2xx, then nothing more: the same message each time, each signed for its own attempt.
  expect(requests).toHaveLength(3);
  expect(requests.map((r) => r.headers['webhook-id'])).toEqual([1, 2, 3].map(() => `msg_${alert.id}`));
  expect(new Set(requests.map((r) => r.body)).size).toBe(1);
  for (const r of requests) {
    expect(new Webhook(org.secret).verify(r.body, r.headers as Record<string, string>)).toMatchObject({
      type: 'wallet.balance_low',
      threshold: 10,
    });
  }
  expect(mails).toHaveLength(1);
  // Three runs of the job (one per webhook attempt; the pauses were spent in the delayed set), and only its
  // completion counted as one of the job's own attempts (they are the e-mail's and the errors').
  expect(job?.attemptsStarted).toBe(3);
  expect(job?.attemptsMade).toBe(1);
  const settings = await h.http.get('/api/organization/wallet/alerts').set(inOrg(org.admin, org.id)).expect(200);
  expect(settings.body.data.lastAlertTime).toEqual(expect.any(String));
});

it('records the webhook failed after its last attempt, made in its own run, and sends nothing more', async () => {
  const org = await organizationFailing(Number.POSITIVE_INFINITY);
  await h.http.post('/api/organization/wallet/alerts/test').set(inOrg(org.admin, org.id)).send({}).expect(202);

  const { alert, job, attempts, requests, mails } = await finished(org, (id) => `test-alert-${id}`);
  expect(alert).toMatchObject({ kind: 'test', emailStatus: 'sent', webhookStatus: 'failed' });
  expect(attempts.filter((a) => a.channel === 'webhook').map((a) => [a.attempt, a.statusCode, a.succeeded])).toEqual(
    [1, 2, 3, 4].map((n) => [n, 500, false]),
  );
  expect(requests).toHaveLength(ATTEMPTS);
  expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([`msg_${alert.id}`]));
  expect(mails).toHaveLength(1);
  expect(job?.attemptsStarted).toBe(ATTEMPTS);
  expect(job?.attemptsMade).toBe(1);
  const history = await h.http.get('/api/organization/wallet/alerts/history').set(inOrg(org.admin, org.id));
  expect(history.body.data[0]).toMatchObject({ webhook: { status: 'failed' }, email: { status: 'sent' } });
});
