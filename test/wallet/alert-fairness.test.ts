// Hostile webhooks against every other organization's balance alerts. Regressions of two review findings: a
// webhook's attempts (10 s each) and their backoff ran inside one of the alerts worker's 4 slots, so an organization
// whose endpoint never answers held a slot for about 65 s per alert with the defaults; its 5 test alerts an hour took
// every slot, and another organization's alert waited until one of them had given up (#98: one organization's
// share). Then four organizations of one account, one share each, still held the 4 slots for all their attempts and
// pauses (the retries now wait in the delayed set, one attempt per run); and still took every slot for an attempt,
// their queued alerts first: the account that set their webhooks now has a share of its own (ALERTS_PER_ACCOUNT).
import { jest } from '@jest/globals';
import { and, eq, inArray } from 'drizzle-orm';
import { walletAlertDeliveries, walletBalanceAlerts } from '../../shared/db/schema/index.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { type HoldingServer, startHoldingServer } from '../support/held-requests.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { aMember, anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';

jest.setTimeout(120_000);

const SLOTS = 4;

let h: Harness;
/** The hostile organization's endpoint: holds every request, answering none, until told. */
let hostile: HoldingServer;
/** The endpoint of the four organizations of one account: holds every request, answering none, until told. */
let silent: HoldingServer;
/** The endpoint of the organizations of one account in the account share's test: holds every request, until told. */
let held: HoldingServer;
let receiver: LoopbackServer;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  hostile = await startHoldingServer((_req, res) => res.writeHead(204).end());
  silent = await startHoldingServer((_req, res) => res.writeHead(204).end());
  held = await startHoldingServer((_req, res) => res.writeHead(204).end());
  receiver = await startLoopbackServer((_req, res) => res.writeHead(204).end());
  h = await createHarness({
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    ALERT_WEBHOOK_ATTEMPTS: '3',
    ALERT_WEBHOOK_RETRY_MS: '50',
    ALERTS_PER_ORGANIZATION: '1',
    // The organization's share alone, but in the last test (its worker's own setting).
    ALERTS_PER_ACCOUNT: '0',
  });
});
afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await hostile?.close();
  await silent?.close();
  await held?.close();
  await receiver?.close();
});

const setWebhook = (org: TestOrg, url: string, by = org.admin) =>
  h.http
    .put('/api/organization/wallet/alerts')
    .set(inOrg(by, org.id))
    .send({ webhookUrl: url, emailAlertEnabled: false })
    .expect(200);

async function withWebhook(url: string, admin?: TestOrg['admin']): Promise<TestOrg> {
  const org = await anOrganization(h, admin);
  await setWebhook(org, url);
  return org;
}

const testAlert = (org: TestOrg, by = org.admin) =>
  h.http.post('/api/organization/wallet/alerts/test').set(inOrg(by, org.id)).send({}).expect(202);

const alertsOf = (org: TestOrg) =>
  h.ctx.db.select().from(walletBalanceAlerts).where(eq(walletBalanceAlerts.organizationId, org.id));
const delivered = (org: TestOrg) =>
  waitUntil(async () => {
    const rows = await alertsOf(org);
    return rows.length > 0 && rows.every((a) => a.webhookStatus === 'sent') ? rows : undefined;
  }, 120_000);

it("delivers another organization's alert while one organization's webhook holds its deliveries", async () => {
  const attacker = await withWebhook(`${hostile.origin}/hook`);
  const victim = await withWebhook(`${receiver.origin}/hook`);
  for (let i = 0; i < SLOTS; i++) await testAlert(attacker);

  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'alerts' } });
  await waitUntil(async () => hostile.gate.held >= 1, 30_000);
  const started = Date.now();
  await testAlert(victim);

  const [victimAlert] = await delivered(victim);
  const waitedMs = Date.now() - started;
  // Delivered while every one of the attacker's alerts was still held or waiting: none had given up yet.
  const attackers = await alertsOf(attacker);
  expect(attackers.map((a) => a.webhookStatus).filter((s) => s === 'sent' || s === 'failed')).toEqual([]);
  expect(victimAlert?.kind).toBe('test');
  expect(receiver.requests).toHaveLength(1);
  // Never more of the attacker's deliveries at once than its share.
  expect(hostile.gate.held).toBe(1);
  console.info(`victim's alert delivered ${waitedMs} ms after it was requested`);

  // Nothing of the attacker's is lost: once its endpoint answers, each alert is delivered in turn.
  hostile.gate.holding = false;
  await delivered(attacker);
  expect(hostile.gate.held).toBe(1);
  await worker.stop();
  worker = undefined;
});

it("delivers a fifth organization's alert after one attempt of four organizations' silent webhooks, not all", async () => {
  // One account, four organizations (10 a day may be made), one share of the worker each: its 4 slots.
  const first = await withWebhook(`${silent.origin}/hook`);
  const attackers = [first];
  for (let i = 1; i < SLOTS; i++) attackers.push(await withWebhook(`${silent.origin}/hook`, first.admin));
  const victim = await withWebhook(`${receiver.origin}/hook`);
  for (const attacker of attackers) await testAlert(attacker);

  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'alerts' } });
  // Every slot waits on a silent endpoint: an attempt ends only when it times out (10 s).
  await waitUntil(async () => silent.gate.held >= SLOTS, 30_000);
  const started = Date.now();
  await testAlert(victim);

  await delivered(victim);
  console.info(`fifth organization's alert delivered ${Date.now() - started} ms after it was requested`);
  // The fifth organization's alert took the first slot an attempt gave back: no attacker's alert has made a second
  // attempt (each waits for its next one in the delayed set, behind the fifth's), none has given up. Before, a slot came back only once
  // one alert had made all its attempts (3 here, with their pauses) and was `failed`.
  const attackerAlerts = (await Promise.all(attackers.map(alertsOf))).flat();
  expect(attackerAlerts).toHaveLength(SLOTS);
  expect(attackerAlerts.map((a) => a.webhookStatus)).toEqual(attackerAlerts.map(() => 'sending'));
  const attempts = await h.ctx.db
    .select()
    .from(walletAlertDeliveries)
    .where(
      and(
        inArray(
          walletAlertDeliveries.alertId,
          attackerAlerts.map((a) => a.id),
        ),
        eq(walletAlertDeliveries.channel, 'webhook'),
      ),
    );
  // (the attempt that gave the slot back is recorded; the others may still be running out their time)
  expect(attempts.length).toBeGreaterThanOrEqual(1);
  expect([...new Set(attempts.map((a) => `${a.attempt} ${a.succeeded}`))]).toEqual(['1 false']);

  // Nothing of theirs is lost: once the endpoint answers, each alert is delivered on a later attempt.
  silent.gate.holding = false;
  for (const attacker of attackers) await delivered(attacker);
  await worker.stop();
  worker = undefined;
});

it("delivers another account's alert at once while one account's organizations' silent webhooks and queued alerts hold its share", async () => {
  const ACCOUNT_SHARE = 2;
  // One account, four organizations with silent webhooks (it set them), two alerts queued in each.
  const first = await withWebhook(`${held.origin}/hook`);
  const attackers = [first];
  for (let i = 1; i < SLOTS; i++) attackers.push(await withWebhook(`${held.origin}/hook`, first.admin));
  for (const attacker of attackers) {
    await testAlert(attacker);
    await testAlert(attacker);
  }
  // A fifth organization of the same account, handed over: another Admin set its webhook, so it is that account's.
  const handedOver = await anOrganization(h, first.admin);
  const newAdmin = await aMember(h, handedOver, 'Admin');
  await setWebhook(handedOver, `${receiver.origin}/handed-over`, newAdmin);
  const victim = await withWebhook(`${receiver.origin}/hook`);

  worker = await startProcess(h.env, {
    extraEnv: { WORKER_QUEUES: 'alerts', ALERTS_PER_ACCOUNT: String(ACCOUNT_SHARE) },
  });
  // The account's share of the worker waits on its silent endpoint: an attempt ends only when it times out (10 s).
  await waitUntil(async () => held.gate.held >= ACCOUNT_SHARE, 30_000);
  await testAlert(victim);
  await testAlert(handedOver, newAdmin);

  await delivered(victim);
  await delivered(handedOver);
  // Both went out within the first attempt's time-out: no alert of the account has made (recorded) an attempt yet,
  // and never more of them were running than the account's share, though 4 slots and 8 alerts of 4 organizations.
  const attackerAlerts = (await Promise.all(attackers.map(alertsOf))).flat();
  expect(attackerAlerts).toHaveLength(2 * SLOTS);
  const attempts = await h.ctx.db
    .select()
    .from(walletAlertDeliveries)
    .where(
      inArray(
        walletAlertDeliveries.alertId,
        attackerAlerts.map((a) => a.id),
      ),
    );
  expect(attempts).toEqual([]);
  expect(held.gate.held).toBe(ACCOUNT_SHARE);
  expect(receiver.requests.filter((r) => r.url === '/handed-over')).toHaveLength(1);

  // Nothing of theirs is lost: once the endpoint answers, each alert is delivered in turn.
  held.gate.holding = false;
  for (const attacker of attackers) await delivered(attacker);
});
