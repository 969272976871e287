// Top-up codes in the browser: the platform Admin issues a batch (shown once), revokes one after confirming; an
// organization Admin redeems another on the wallet page and sees the balance rise by exactly its amount; redeeming it
// again, the revoked one, an unknown one or the same code in another organization shows why nothing was credited; a
// Member sees no redeem form.
import type { Page } from 'playwright-core';
import { recharge } from '../support/gateway.js';
import { bearer, createUser, signInAdmin } from '../support/identity.js';
import { aMember, anOrganization, type TestOrg } from '../support/org-fixtures.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
let admin: Page;
let adminToken = '';
let org: TestOrg;
/** The two codes issued in the page, read off it. */
let codes: string[] = [];

const CODE = /^OTC(-[0-9A-HJKMNP-TV-Z]{5}){5}$/;

beforeAll(async () => {
  w = await openConsoleWorld();
  adminToken = (await signInAdmin(w.h)).token;
  org = await anOrganization(w.h, await createUser(w.h, { name: 'Vera Voucher' }), 'Voucher Labs');
  await recharge(w.h, org, '7.5');
  admin = await w.newPage();
  await signIn(admin, w.admin.email, w.admin.password, '/platform');
});
afterAll(() => w?.close());

const listed = async (status: string) =>
  (await w.h.http.get(`/api/v1/admin/top-up-codes?status=${status}`).set(bearer(adminToken))).body.items as {
    codeHint: string;
    organizationId?: string;
  }[];

describe('top-up codes', () => {
  it('issues two codes shown only once, and revokes one after confirming', async () => {
    await admin.getByRole('link', { name: 'Top-up codes' }).click();
    await admin.getByRole('heading', { name: 'Top-up codes', level: 1 }).waitFor();
    await admin.getByLabel('Amount per code').fill('12.345678');
    await admin.getByLabel('Number of codes').fill('2');
    await admin.getByLabel('Note').fill('Conference voucher');
    await admin.getByRole('button', { name: 'Issue codes' }).click();
    const shown = admin.getByRole('region', { name: /^2 top-up codes of 12\.345678 USD each, valid until / });
    await shown.getByText('shown only this once; copy them now.').waitFor();
    codes = await shown.getByTestId('shown-once').allTextContents();
    expect(codes).toHaveLength(2);
    for (const code of codes) expect(code).toMatch(CODE);
    await checkPage(admin, 'platform-top-up-codes-issued');

    const table = admin.getByRole('table', { name: 'Top-up codes' });
    const second = table.locator('tr', { hasText: `…${(codes[1] as string).slice(-4)}` });
    await second.getByRole('button', { name: 'Revoke' }).click();
    await second.getByRole('button', { name: 'Revoke for good' }).click();
    await second.locator('.badge', { hasText: 'revoked' }).waitFor();
    expect((await listed('revoked')).map((c) => c.codeHint)).toEqual([(codes[1] as string).slice(-4)]);

    // Once the Admin is done (or the page reloads), the codes are nowhere to be seen again.
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    await admin.reload();
    await table.locator('tbody tr').first().waitFor();
    const text = (await admin.locator('main').textContent()) ?? '';
    for (const code of codes) expect(text).not.toContain(code);
    await admin.getByLabel('Status').selectOption('active');
    await table.locator('tr', { hasText: 'revoked' }).waitFor({ state: 'detached' });
    expect(await table.locator('tbody tr').count()).toBe(1);
    await table
      .locator('tr', { hasText: `…${(codes[0] as string).slice(-4)}` })
      .getByText('Conference voucher')
      .waitFor();
    await checkPage(admin, 'platform-top-up-codes');
  });

  it("lets the organization's Admin redeem a code: the balance rises by exactly its amount, once", async () => {
    expect(codes).toHaveLength(2);
    const [good, revoked] = codes as [string, string];
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, '/org/wallet');
    const balance = page.getByTestId('balance');
    await balance.getByText('7.50 USD', { exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: 'Recharge (platform Admin)' }).count()).toBe(0);

    const form = page.getByRole('form', { name: 'Redeem a top-up code' });
    await form.getByLabel('Top-up code').fill(good);
    await form.getByRole('button', { name: 'Redeem' }).click();
    await form.getByText('Credited 12.345678 USD: balance now 19.845678 USD.').waitFor();
    await balance.getByText('19.845678 USD', { exact: true }).waitFor();
    const records = page.getByRole('table', { name: 'Wallet records' });
    const credited = records.locator('tr', { hasText: 'Conference voucher' });
    await credited.waitFor();
    expect(await credited.locator('td').allTextContents()).toEqual([
      expect.any(String),
      'Recharge',
      '+12.345678 USD',
      '19.845678 USD',
      'Conference voucher',
      // "Spent by": a Recharge names no project or key.
      '',
    ]);
    expect(await form.getByLabel('Top-up code').inputValue()).toBe('');
    await checkPage(page, 'wallet-redeem');

    // The same code again: the API answers the earlier Recharge (200); the page says nothing more was credited.
    await form.getByLabel('Top-up code').fill(good);
    await form.getByRole('button', { name: 'Redeem' }).click();
    await form
      .getByRole('alert')
      .getByText(
        /^This code was already redeemed into this wallet \(.*, 12\.345678 USD\); nothing more was credited\.$/,
      )
      .waitFor();

    await form.getByLabel('Top-up code').fill(revoked);
    await form.getByRole('button', { name: 'Redeem' }).click();
    await form.getByRole('alert').getByText('This top-up code was revoked. (TopUpCode.Revoked)').waitFor();
    await form.getByLabel('Top-up code').fill('OTC-00000-00000-00000-00000-00000');
    await form.getByRole('button', { name: 'Redeem' }).click();
    await form.getByRole('alert').getByText('(TopUpCode.NotFound)').waitFor();
    await checkPage(page, 'wallet-redeem-refused');
    expect(await records.locator('tr', { hasText: 'Conference voucher' }).count()).toBe(1);
    await page.reload();
    await balance.getByText('19.845678 USD', { exact: true }).waitFor();
    expect((await listed('redeemed')).map((c) => c.organizationId)).toEqual([org.id]);
  });

  it('refuses the redeemed code to another organization, and shows it redeemed in the platform list', async () => {
    // The platform Admin is also the Admin of the default organization: its wallet page has both forms.
    await admin.goto('/org/wallet');
    await admin.getByRole('heading', { name: 'Recharge (platform Admin)' }).waitFor();
    const form = admin.getByRole('form', { name: 'Redeem a top-up code' });
    await form.getByLabel('Top-up code').fill((codes[0] as string).toLowerCase());
    await form.getByRole('button', { name: 'Redeem' }).click();
    await form
      .getByRole('alert')
      .getByText('This top-up code has already been redeemed. (TopUpCode.Redeemed)')
      .waitFor();

    await admin.goto('/platform/top-up-codes');
    await admin.getByLabel('Status').selectOption('redeemed');
    // Until the redeemed ones arrive, the table shows the previous filter's rows, dimmed and marked busy.
    const table = admin.locator('table[aria-label="Top-up codes"]:not([aria-busy])');
    const row = table.locator('tbody tr');
    await row.getByText(org.id).waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
  });

  it('shows a Member the wallet without the redeem form', async () => {
    const member = await aMember(w.h, org);
    const page = await w.newPage();
    await signIn(page, member.email, member.password, '/org/wallet');
    await page.getByTestId('balance').getByText('19.845678 USD', { exact: true }).waitFor();
    expect(await page.getByRole('form', { name: 'Redeem a top-up code' }).count()).toBe(0);
  });
});
