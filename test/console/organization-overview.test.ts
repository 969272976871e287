// The organization's Overview tab in the browser: an Admin of a funded organization sees its wallet, spending,
// projects and members as the API states them; a new organization shows its next steps with working links; a Member
// sees the figures a Member may read and no Admin-only control.
import type { Page } from 'playwright-core';
import { type Charge, closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import { aProjectWithKey, consumeRecords, walletOf, writeLedgers } from '../support/gateway.js';
import { TEST_PASSWORD } from '../support/identity.js';
import { aMember, anInviteToken, anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';
import { callerOf } from '../support/wallet-spend.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
let funded: { org: TestOrg; projectId: string; key: string };
let held: Charge | undefined;

beforeAll(async () => {
  w = await openConsoleWorld();
  funded = await aProjectWithKey(w.h, '10');
});
afterAll(async () => {
  if (held) await closeCharge(w.h.ctx, held, { status: 'failed', httpStatus: 500, costMicros: 0n });
  await w?.close();
});

/** Money as the console writes it (console/src/format.ts): at least two decimals, then the currency. */
const money = (amount: number, currency = 'USD') =>
  `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(amount)} ${currency}`;

const call = (key: string) =>
  fetch(`${w.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'claude-haiku-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hello from the overview test' }],
    }),
  });

const read = async (org: TestOrg, path: string) => {
  const res = await w.h.http.get(path).set(inOrg(org.admin, org.id));
  expect(res.status).toBe(200);
  return res.body.data;
};

/** The viewer on the Overview of the organization named `name` (chosen in the header's switcher). */
async function overviewOf(page: Page, label: string) {
  await page.goto('/org');
  await page.getByRole('combobox', { name: 'Organization', exact: true }).selectOption({ label });
  await page.getByRole('heading', { level: 2, name: 'Wallet' }).waitFor();
}

describe('the organization Overview', () => {
  it("shows an Admin the wallet, the month's and the day's spending, the projects and the members as the API does", async () => {
    const { org, projectId, key } = funded;
    for (let i = 0; i < 3; i += 1) expect((await call(key)).status).toBe(200);
    await writeLedgers(w.h);
    const consumed = await consumeRecords(w.h, org);
    expect(consumed).toHaveLength(3);
    // A request in flight holds money: what the wallet shows as held.
    held = await openCharge(w.h.ctx, callerOf(org.id, projectId), { operation: 'messages', reserveMicros: usd('0.4') });
    await anInviteToken(w.h, org, { role: 'Member' });
    const alerts = await w.h.http
      .put('/api/organization/wallet/alerts')
      .set(inOrg(org.admin, org.id))
      .send({ thresholds: [5, 2] });
    expect(alerts.status).toBe(200);

    const wallet = await walletOf(w.h, org);
    const spending = await read(org, '/api/organization/wallet/spending');
    const usage = await read(org, `/api/projects/${projectId}/quota-usage?period=day`);
    const spent = consumed.reduce((sum, r) => sum + r.amount, 0);
    // The API's own figures agree with the records: three requests, what their Consume records took.
    expect(spending.month).toEqual(expect.objectContaining({ requests: 3, refunded: 0 }));
    expect(spending.month.spent).toBeCloseTo(spent, 6);
    expect(spending.today.spent).toBeCloseTo(spent, 6);
    expect(wallet.frozenAmount).toBe(0.4);
    expect(wallet.balance).toBeCloseTo(10 - spent - 0.4, 6);
    // The project's quota counts what it admitted: the three written requests and the one in flight.
    expect(usage.dailyUsage.requestCount).toBe(4);

    const page = await w.newPage();
    await signIn(page, org.admin.email, TEST_PASSWORD, '/org');
    await overviewOf(page, 'Acme (Admin)');
    await page.getByTestId('overview-balance').getByText(money(wallet.balance), { exact: true }).waitFor();
    expect(await page.getByTestId('overview-held').textContent()).toBe(money(0.4));
    expect(await page.getByTestId('overview-month').textContent()).toBe(`${money(spending.month.spent)}3 requests`);
    expect(await page.getByTestId('overview-today').textContent()).toBe(`${money(spending.today.spent)}3 requests`);
    expect(await page.getByTestId('overview-alerts').textContent()).toBe('e-mail, below 5.00 or 2.00 USD');
    expect(await page.getByTestId('overview-project-count').textContent()).toBe('1 project');
    const projects = page.getByRole('table', { name: 'Newest projects' });
    await projects.locator('td.num', { hasText: String(usage.dailyUsage.requestCount) }).waitFor();
    expect(await page.getByTestId('overview-member-count').textContent()).toBe('1 member');
    expect(await page.getByTestId('overview-invites').textContent()).toBe('1 open invite');
    // Funded, with a project and a key: nothing left to do.
    expect(await page.getByRole('heading', { name: 'Next steps' }).count()).toBe(0);
    // Still below the overview: switching and creating organizations.
    await page.getByRole('heading', { level: 2, name: 'My organizations' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Create an organization' }).waitFor();
    await checkPage(page, 'organization-overview');

    await projects.getByRole('link', { name: 'Project' }).click();
    await page.waitForURL(`**/org/projects/${projectId}`);
  });

  it('shows a new organization its next steps, each a working link', async () => {
    const page = await w.newPage();
    await signIn(page, funded.org.admin.email, TEST_PASSWORD, '/org');
    await page.getByLabel('New organization name').fill('Fresh start');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Fresh start', level: 1 }).waitFor();
    const steps = page.getByRole('region', { name: 'Next steps' });
    await steps.getByTestId('next-money').waitFor();
    await steps.getByTestId('next-project').waitFor();
    expect(await page.getByTestId('overview-balance').textContent()).toBe(money(0));
    expect(await page.getByTestId('overview-project-count').textContent()).toBe('0 projects');
    await page.getByText('No projects yet.').waitFor();
    await checkPage(page, 'organization-overview-new');

    await steps.getByRole('link', { name: 'Create a project' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByLabel('Project name').fill('Lonely');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('status').filter({ hasText: 'Project Lonely created.' }).waitFor();
    await page.goto('/org');
    // A blank project has no key: the next step is one, for that project.
    const keyStep = steps.getByTestId('next-key');
    await keyStep.getByText('No API key of yours for "Lonely" yet.').waitFor();
    expect(await steps.getByTestId('next-project').count()).toBe(0);
    await keyStep.getByRole('link', { name: 'Create an API key' }).click();
    await page.waitForURL(/\/account\/keys\?project=[0-9a-f-]{36}$/);
    await page.goBack();
    await steps.getByRole('link', { name: 'Redeem a top-up code on the Wallet page' }).click();
    await page.getByRole('heading', { level: 2, name: 'Redeem a top-up code' }).waitFor();
  });

  it('shows a Member the figures a Member may read, and no Admin-only control', async () => {
    const member = await aMember(w.h, funded.org);
    const page = await w.newPage();
    await signIn(page, member.email, TEST_PASSWORD, '/org');
    await page.getByRole('heading', { level: 2, name: 'Wallet' }).waitFor();
    const wallet = await walletOf(w.h, funded.org);
    await page.getByTestId('overview-balance').getByText(money(wallet.balance), { exact: true }).waitFor();
    await page.getByTestId('overview-month').getByText('3 requests').waitFor();
    expect(await page.getByTestId('overview-member-count').textContent()).toBe('2 members');
    await page.getByRole('table', { name: 'Newest projects' }).getByRole('link', { name: 'Project' }).waitFor();
    // In no project of the organization: a key cannot be bound yet, and the step says who can help.
    const keyStep = page.getByTestId('next-key');
    await keyStep.getByText("you are in none of the organization's projects", { exact: false }).waitFor();
    expect(await keyStep.getByRole('link').count()).toBe(0);
    // What only Admins read or do is not there: alerts, invites, and links to their pages.
    expect(await page.getByTestId('overview-alerts').count()).toBe(0);
    expect(await page.getByTestId('overview-invites').count()).toBe(0);
    expect(await page.locator('a[href="/org/alerts"]').count()).toBe(0);
    await checkPage(page, 'organization-overview-member');
  });

  it('tells a Member of an empty organization what is missing, with no control only an Admin may use', async () => {
    const empty = await anOrganization(w.h, undefined, 'Bare');
    const member = await aMember(w.h, empty);
    const page = await w.newPage();
    await signIn(page, member.email, TEST_PASSWORD, '/org');
    const steps = page.getByRole('region', { name: 'Next steps' });
    await steps
      .getByText('The wallet is empty: gateway calls are refused until an Admin of the organization adds money.')
      .waitFor();
    await steps
      .getByText('No project yet: gateway calls belong to a project, and an Admin of the organization creates them.')
      .waitFor();
    expect(await steps.getByRole('link').count()).toBe(0);
  });
});
