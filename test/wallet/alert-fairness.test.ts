// One organization's hostile webhook against every other organization's balance alerts. Regression of a review
// finding: a webhook's attempts (10 s each) and their backoff run inside one of the alerts worker's 4 slots, so an
// organization whose endpoint never answers held a slot for about 65 s per alert with the defaults; its 5 test alerts
// an hour took every slot, and another organization's alert waited until one of them had given up.
import { jest } from '@jest/globals';
import { eq } from 'drizzle-orm';
import { walletBalanceAlerts } from '../../shared/db/schema/index.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { type HoldingServer, startHoldingServer } from '../support/held-requests.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';

jest.setTimeout(120_000);

const SLOTS = 4;

let h: Harness;
/** The hostile organization's endpoint: holds every request, answering none, until told. */
let hostile: HoldingServer;
let receiver: LoopbackServer;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  hostile = await startHoldingServer((_req, res) => res.writeHead(204).end());
  receiver = await startLoopbackServer((_req, res) => res.writeHead(204).end());
  h = await createHarness({
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    ALERT_WEBHOOK_ATTEMPTS: '3',
    ALERT_WEBHOOK_RETRY_MS: '50',
    ALERTS_PER_ORGANIZATION: '1',
  });
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await hostile?.close();
  await receiver?.close();
});

async function withWebhook(url: string): Promise<TestOrg> {
  const org = await anOrganization(h);
  await h.http
    .put('/api/organization/wallet/alerts')
    .set(inOrg(org.admin, org.id))
    .send({ webhookUrl: url, emailAlertEnabled: false })
    .expect(200);
  return org;
}

const testAlert = (org: TestOrg) =>
  h.http.post('/api/organization/wallet/alerts/test').set(inOrg(org.admin, org.id)).send({}).expect(202);

const alertsOf = (org: TestOrg) =>
  h.ctx.db.select().from(walletBalanceAlerts).where(eq(walletBalanceAlerts.organizationId, org.id));

it("delivers another organization's alert while one organization's webhook holds its deliveries", async () => {
  const attacker = await withWebhook(`${hostile.origin}/hook`);
  const victim = await withWebhook(`${receiver.origin}/hook`);
  for (let i = 0; i < SLOTS; i++) await testAlert(attacker);

  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'alerts' } });
  await waitUntil(async () => hostile.gate.held >= 1, 30_000);
  const started = Date.now();
  await testAlert(victim);

  const [delivered] = await waitUntil(async () => {
    const rows = await alertsOf(victim);
    return rows[0]?.webhookStatus === 'sent' ? rows : undefined;
  }, 90_000);
  const waitedMs = Date.now() - started;
  // Delivered while every one of the attacker's alerts was still held or waiting: none had given up yet.
  const attackers = await alertsOf(attacker);
  expect(attackers.map((a) => a.webhookStatus).filter((s) => s === 'sent' || s === 'failed')).toEqual([]);
  expect(delivered?.kind).toBe('test');
  expect(receiver.requests).toHaveLength(1);
  // Never more of the attacker's deliveries at once than its share.
  expect(hostile.gate.held).toBe(1);
  console.info(`victim's alert delivered ${waitedMs} ms after it was requested`);

  // Nothing of the attacker's is lost: once its endpoint answers, each alert is delivered in turn.
  hostile.gate.holding = false;
  await waitUntil(async () => (await alertsOf(attacker)).every((a) => a.webhookStatus === 'sent'), 90_000);
  expect(hostile.gate.held).toBe(1);
});
