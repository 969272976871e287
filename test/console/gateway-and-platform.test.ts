// The gateway page (a project's video tasks live until finished, the video playable in the page; its recent
// requests) and the platform Admin's pages (accounts and roles, quota requests, recharges and refunds, the audit
// log, the queue dashboard reached with the console session).
import type { Page } from 'playwright-core';
import { requestLogs } from '../../shared/db/schema/index.js';
import { REQUEST_LIST_WINDOW } from '../../shared/gateway/request-log-reads.js';
import { recharge } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer, createUser, signInAdmin, uniqueEmail } from '../support/identity.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
let admin: Page;
let adminToken = '';
let orgId = '';
let projectId = '';
let projectKey = '';

const gateway = (path: string, body: unknown) =>
  fetch(`${w.baseUrl}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${projectKey}`,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  w = await openConsoleWorld();
  adminToken = (await signInAdmin(w.h)).token;
  const orgs = await w.h.http.get('/api/organizations').set(bearer(adminToken));
  orgId = orgs.body.data[0].id;
  const templates = await w.h.http.get('/api/project-templates').set(bearer(adminToken));
  const starter = templates.body.data.find((t: { name: string }) => t.name === 'Starter');
  const created = await w.h.http
    .post('/api/projects/from-template')
    .set({ ...bearer(adminToken), 'x-organization-id': orgId })
    .send({ name: 'Video studio', templateId: starter.id });
  expect(created.status).toBe(201);
  projectId = created.body.data.id;
  projectKey = created.body.data.apiKeys[0].token;
  await recharge(w.h, { id: orgId, admin: { session: adminToken } as never }, '50');
  admin = await w.newPage();
  await signIn(admin, w.admin.email, w.admin.password, '/gateway');
});
afterAll(() => w?.close());

describe('the gateway page', () => {
  it("follows a project's video tasks live until the video plays in the page, and lists its requests", async () => {
    const ok = await gateway('/v1/videos', { model: 'sora-2', prompt: 'A paper boat on a pond at dawn', seconds: '4' });
    expect(ok.status).toBe(200);
    const failing = await gateway('/v1/videos', { model: 'sora-2', prompt: 'A storm [fail]', seconds: '4' });
    expect(failing.status).toBe(200);
    const message = await gateway('/v1/messages', {
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Describe a paper boat' }],
    });
    expect(message.status).toBe(200);
    const usage = ((await message.json()) as { usage: { input_tokens: number; output_tokens: number } }).usage;

    await admin.goto(`/gateway/${projectId}`);
    const tasks = admin.getByTestId('video-task');
    await tasks.first().waitFor();
    expect(await tasks.count()).toBe(2);
    const boat = tasks.filter({ hasText: 'A paper boat on a pond at dawn' });
    // Live: the page polls while a task is open, without a reload.
    await boat.locator('.badge', { hasText: 'completed' }).waitFor({ timeout: 60_000 });
    const video = boat.locator('video');
    await video.waitFor();
    expect(await video.getAttribute('src')).toMatch(new RegExp(`^${w.baseUrl}/files/`));
    // A function, not a string: Playwright polls a string expression with the page's eval, which the console's CSP
    // refuses (an EvalError whenever the video was not ready at the first look).
    await admin.waitForFunction(
      () => {
        const v = (
          globalThis as unknown as {
            document: { querySelector(s: string): { readyState: number; error: unknown } | null };
          }
        ).document.querySelector('video');
        return v !== null && v.readyState >= 1 && !v.error;
      },
      undefined,
      { timeout: 30_000 },
    );
    const storm = tasks.filter({ hasText: 'A storm [fail]' });
    await storm.locator('.badge', { hasText: 'failed' }).waitFor({ timeout: 60_000 });
    await storm.locator('.error').waitFor();

    const requests = admin.getByRole('table', { name: 'Recent requests' });
    const row = requests.locator('tr', { hasText: 'claude-haiku-4-5' });
    await row.waitFor();
    const cells = await row.locator('td').allTextContents();
    expect(cells[1]).toBe('messages');
    // Which key paid for it: the project's key from the template, by name (a finance admin's trial found none).
    await row.locator('td', { hasText: 'Video studio key' }).waitFor();
    expect((await row.locator('td').allTextContents())[3]).toBe('Video studio key');
    expect(cells[4]).toBe(String(usage.input_tokens));
    expect(cells[5]).toBe(String(usage.output_tokens));
    expect(cells[6]).toMatch(/^0\.\d+ USD$/);
    expect(cells[7]).toContain('succeeded');
    await requests.locator('tr', { hasText: 'sora-2' }).first().waitFor();
    await checkPage(admin, 'video-tasks');
  });

  it("shows a project's usage per model and what it spent per day, as the API answers it", async () => {
    const made = await w.h.http
      .post('/api/projects')
      .set({ ...bearer(adminToken), 'x-organization-id': orgId })
      .send({ name: 'Usage project' });
    expect(made.status).toBe(201);
    const usageProject: string = made.body.data.id;
    const key = await w.h.http
      .post('/api/v1/api-keys')
      .set(bearer(adminToken))
      .send({ name: 'usage key', projectId: usageProject });
    expect(key.status).toBe(200);
    const send = (path: string, body: unknown) =>
      fetch(`${w.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'x-api-key': key.body.token, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ask = { max_tokens: 32, messages: [{ role: 'user', content: 'Name a paper boat' }] };
    // A prompt cached: the first Haiku call writes it to the cache, the second reads it.
    const preamble = { type: 'text', text: 'A shared preamble. '.repeat(40), cache_control: { type: 'ephemeral' } };
    const cached = { model: 'claude-haiku-4-5', max_tokens: 32, messages: [{ role: 'user', content: [preamble] }] };
    const sent = [
      await send('/v1/messages', cached),
      ...(await Promise.all([
        send('/v1/messages', cached),
        send('/v1/messages', { model: 'claude-sonnet-5', ...ask }),
        send('/v1/messages/count_tokens', { model: 'claude-sonnet-5', messages: ask.messages }),
      ])),
    ];
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // The ledger worker writes them a moment later.
    const usage = await waitUntil(async () => {
      const res = await w.h.http
        .get(`/api/projects/${usageProject}/usage`)
        .set({ ...bearer(adminToken), 'x-organization-id': orgId });
      return res.body.data.days[0]?.requests === 4 ? res.body.data : undefined;
    });

    await admin.goto(`/gateway/${usageProject}`);
    const panel = admin.getByRole('region', { name: 'Usage' });
    const table = panel.getByRole('table', { name: 'Usage by model' });
    await table.waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    // As the console writes money and counts (console/src/format.ts).
    const money = (n: number) =>
      `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(n)} USD`;
    const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
    type Row = { operation: string; model: string; requests: number; inputTokens: number; outputTokens: number };
    type Cache = { cacheReadTokens: number; cacheWriteTokens: number };
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Operation',
      'Model',
      'Requests',
      'Tokens in',
      'Cache read',
      'Cache write',
      'Tokens out',
      'Spent',
    ]);
    expect(rows).toEqual(
      (usage.models as (Row & Cache & { spent: number })[]).map((m) => [
        m.operation,
        m.model,
        count(m.requests),
        count(m.inputTokens),
        count(m.cacheReadTokens),
        count(m.cacheWriteTokens),
        count(m.outputTokens),
        money(m.spent),
      ]),
    );
    // The cached Haiku calls show what the cache wrote and read; the others none.
    const haiku = (usage.models as (Row & Cache)[]).find((m) => m.model === 'claude-haiku-4-5');
    expect(haiku?.cacheReadTokens).toBeGreaterThan(0);
    expect(haiku?.cacheWriteTokens).toBe(haiku?.cacheReadTokens);
    expect(rows.map((r) => r.slice(0, 3))).toEqual(
      expect.arrayContaining([
        ['messages', 'claude-haiku-4-5', '2'],
        ['messages', 'claude-sonnet-5', '1'],
        ['count_tokens', 'claude-sonnet-5', '1'],
      ]),
    );
    const spent = usage.days[0].spent as number;
    expect(spent).toBeGreaterThan(0);
    expect(await panel.getByTestId('usage-total').textContent()).toContain('4 requests');
    // The chart's numbers, in its table for screen readers: 30 days, today's the day's spending.
    const chart = panel.getByTestId('chart-data');
    await chart.waitFor({ state: 'attached' });
    const points = await chart
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent)));
    expect(points).toHaveLength(30);
    expect(points.at(-1)?.[0]).toBe(new Date().toISOString().slice(0, 10));
    expect(points.at(-1)?.[1]).toBe(money(spent));
    expect(points.slice(0, -1).every((p) => p[1] === '0.00 USD')).toBe(true);

    await panel.getByLabel('Period').selectOption('7');
    // The eighth day leaves the chart: 7 remain.
    await chart.locator('tbody tr').nth(7).waitFor({ state: 'detached' });
    expect(await chart.locator('tbody tr').count()).toBe(7);
    await checkPage(admin, 'gateway-usage');
  });

  it("says that a busy project's request list reaches only its newest requests", async () => {
    const busy = await w.h.http
      .post('/api/projects')
      .set({ ...bearer(adminToken), 'x-organization-id': orgId })
      .send({ name: 'Busy project' });
    expect(busy.status).toBe(201);
    const busyId: string = busy.body.data.id;
    const now = Date.now();
    const rows = Array.from({ length: REQUEST_LIST_WINDOW + 20 }, (_, i) => ({
      organizationId: orgId,
      projectId: busyId,
      operation: 'messages',
      status: 'succeeded',
      createdAt: new Date(now - i * 1000),
    }));
    for (let i = 0; i < rows.length; i += 1000) await w.h.ctx.db.insert(requestLogs).values(rows.slice(i, i + 1000));
    await admin.goto(`/gateway/${busyId}`);
    const pager = admin.getByRole('navigation', { name: 'Request pages' });
    await pager.waitFor();
    expect(await pager.textContent()).toContain(`Page 1 of ${REQUEST_LIST_WINDOW / 20} (the newest 10,000)`);
  });
});

describe('the platform pages', () => {
  it('finds an account and changes its roles; shows the API error of a weak provisioning password', async () => {
    const user = await createUser(w.h, { email: uniqueEmail('roles'), name: 'Rory Roles' });
    await admin.goto('/platform');
    await admin.getByLabel('Find accounts').fill(user.email);
    await admin.getByRole('button', { name: 'Search', exact: true }).click();
    // The searched-for rows, not the unfiltered list the table keeps (marked busy) until they arrive.
    const row = admin.locator('table[aria-label="Accounts"]:not([aria-busy])').getByRole('row').filter({
      hasText: user.email,
    });
    await row.waitFor();
    await row.getByLabel('Publisher').check();
    await row.getByRole('button', { name: `Save roles of ${user.email}` }).click();
    // Said in the row, after the list refetched with the saved roles (the row stays, and so does its message).
    await row.getByRole('status').getByText('Saved.', { exact: true }).waitFor();
    expect(await row.getByLabel('Publisher').isChecked()).toBe(true);
    expect(await row.getByRole('button', { name: `Save roles of ${user.email}` }).isDisabled()).toBe(true);
    await waitUntil(async () => {
      const res = await w.h.http
        .get(`/api/v1/admin/accounts?search=${encodeURIComponent(user.email)}`)
        .set(bearer(adminToken));
      return res.body.items[0]?.roles.includes('Publisher');
    }, 30_000);
    await admin.getByLabel('E-mail').fill(uniqueEmail('new'));
    await admin.getByLabel('Name', { exact: true }).fill('New Person');
    await admin.getByLabel('Initial password').fill('short');
    await admin.getByRole('button', { name: 'Create account' }).click();
    await admin.getByRole('alert').filter({ hasText: '(Auth.InvalidPassword)' }).waitFor();
    await checkPage(admin, 'platform-accounts');
    // A search that finds nobody says so (it was an empty table's headings).
    await admin.getByLabel('Find accounts').fill('nobody-at-all@nowhere.example');
    await admin.getByRole('button', { name: 'Search', exact: true }).click();
    await admin.getByText('No account matches "nobody-at-all@nowhere.example".').waitFor();
  });

  /** A new account asking for a daily quota. */
  const aQuotaRequest = async (requestedQuota: number, reason: string) => {
    const user = await createUser(w.h, { email: uniqueEmail('quota') });
    const asked = await w.h.http
      .post('/api/v1/api-keys/quota-requests')
      .set(bearer(user.session))
      .send({ requestedQuota, reason });
    expect(asked.status).toBe(200);
    return { user, asked };
  };

  it('approves a quota request, which becomes the account’s daily quota', async () => {
    const { user } = await aQuotaRequest(4321, 'Batch imports');
    await admin.goto('/platform/quota-requests');
    const row = admin.getByRole('row').filter({ hasText: user.email });
    await row.getByText('Batch imports').waitFor();
    await checkPage(admin, 'platform-quota-requests');
    await row.getByRole('button', { name: 'Approve' }).click();
    await row.waitFor({ state: 'detached' });
    // The decision says what it did (the row only vanished).
    await admin.getByRole('status').getByText(`Approved: the daily quota of ${user.email} is now 4,321.`).waitFor();
    const usage = await w.h.http.get('/api/v1/api-keys/usage?days=1').set(bearer(user.session));
    expect(usage.body.dailyQuota).toBe(4321);
  });

  it('rejects a quota request only after a second click, and says so', async () => {
    const { user, asked } = await aQuotaRequest(99999, 'Everything');
    await admin.goto('/platform/quota-requests');
    const row = admin.getByRole('row').filter({ hasText: user.email });
    await row.getByRole('button', { name: 'Reject', exact: true }).click();
    await row.getByRole('button', { name: 'Keep' }).click();
    await row.getByRole('button', { name: 'Reject', exact: true }).click();
    await row.getByRole('button', { name: 'Reject the request' }).click();
    await row.waitFor({ state: 'detached' });
    await admin
      .getByRole('status')
      .getByText(`Rejected the request of ${user.email}; their daily quota stays 1,000.`)
      .waitFor();
    const mine = await w.h.http.get('/api/v1/api-keys/quota-requests/mine').set(bearer(user.session));
    expect(mine.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: asked.body.id, status: 'rejected' })]),
    );
  });

  it('recharges an organization and refunds one of its consumptions', async () => {
    await admin.goto('/platform/wallets');
    await admin.getByLabel('Find organizations').fill('Default');
    await admin.getByRole('button', { name: 'Search', exact: true }).click();
    await admin.getByRole('button', { name: 'Manage Default organization' }).click();
    const panel = admin.getByRole('region', { name: 'Wallet of Default organization' });
    await panel.getByLabel('Amount').fill('10');
    await panel.getByRole('button', { name: 'Recharge' }).click();
    await panel.getByText(/^Recharged: balance now /).waitFor();
    const consumption = panel.getByRole('table', { name: 'Consumptions of Default organization' }).locator('tbody tr');
    await consumption.first().waitFor();
    const before = await consumption.count();
    const target = consumption.filter({ hasText: 'messages' }).first();
    await target.getByRole('button', { name: 'Refund' }).click();
    await target.getByRole('textbox', { name: /Refund reason/ }).fill('Goodwill');
    await target.getByRole('button', { name: 'Confirm refund' }).click();
    await waitUntil(async () => {
      const res = await w.h.http
        .get(`/api/v1/admin/organizations/${orgId}/wallet/records?type=Refund`)
        .set(bearer(adminToken));
      return res.body.items.some((r: { description?: string }) => r.description === 'Goodwill');
    }, 30_000);
    expect(await consumption.count()).toBe(before);
    await target.getByText('refunded', { exact: true }).waitFor();
    await checkPage(admin, 'platform-wallets');
  });

  it('shows the recharge and the refund just made in the audit log, filtered by action', async () => {
    await admin.goto('/platform');
    await admin.getByRole('link', { name: 'Audit log' }).click();
    const log = admin.getByRole('table', { name: 'Audit log' });
    await log.getByRole('cell', { name: 'wallet.recharge', exact: true }).first().waitFor();
    await admin.getByLabel('Action').selectOption('wallet.refund');
    const refund = log.locator('tbody tr');
    await waitUntil(async () => (await refund.count()) === 1, 10_000, 50);
    await refund.getByRole('cell', { name: 'wallet.refund', exact: true }).waitFor();
    await refund.getByText(/^after: .*Goodwill/).waitFor();
    expect(await refund.getByText('by session').count()).toBe(1);
    await checkPage(admin, 'platform-audit-log');
  });

  it('opens the queue dashboard with the console session', async () => {
    await admin.goto('/platform');
    await admin.getByRole('link', { name: 'Queue dashboard' }).click();
    await admin.waitForURL('**/admin/queues**');
    await admin.getByText('ockhub queues').first().waitFor();
  });
});
