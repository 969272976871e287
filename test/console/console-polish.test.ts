// Console polish: one role field for both invite forms, pagers that never strand the reader on an emptied page, a
// compact header on a phone, a filter over the project's member chooser, and the keyboard's focus through a
// two-step confirmation.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { bearer, signInAdmin, type TestUser } from '../support/identity.js';
import { aMember, anInviteToken, anOrganization, aProject, inOrg } from '../support/org-fixtures.js';
import {
  type ConsoleWorld,
  checkPage,
  focused,
  hasFocus,
  laidOut,
  openConsoleWorld,
  PHONE,
  rowsShown,
  SCREENSHOT_DIR,
  seriousViolations,
  signIn,
  wasShown,
  watchFor,
} from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

/** A select's option labels, its accessible description and its name, read from the page. */
async function describeSelect(page: Page, form: string) {
  const select = page.getByRole('form', { name: form }).getByRole('combobox', { name: 'Role' });
  const describedBy = (await select.getAttribute('aria-describedby')) ?? '';
  const description = describedBy ? await page.locator(`[id="${describedBy}"]`).textContent() : null;
  return {
    options: await select.locator('option').allTextContents(),
    value: await select.inputValue(),
    description,
  };
}

describe('the invite forms’ role', () => {
  it('is one field in both forms: the same labels, the same description of each role, Member first', async () => {
    const org = await anOrganization(w.h, undefined, 'Role Field');
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, '/org/members');
    await page.getByRole('form', { name: 'Issue an invite token' }).waitFor();
    const byEmail = await describeSelect(page, 'Invite by e-mail');
    const byToken = await describeSelect(page, 'Issue an invite token');
    expect(byEmail).toEqual({
      options: ['Member', 'Admin'],
      value: 'Member',
      description: 'A Member uses the projects; an Admin also runs the organization.',
    });
    expect(byToken).toEqual(byEmail);

    // It behaves the same: an Admin invite token issued from the tokens form carries the role chosen.
    const tokens = page.getByRole('form', { name: 'Issue an invite token' });
    await tokens.getByRole('combobox', { name: 'Role' }).selectOption('Admin');
    await tokens.getByRole('button', { name: 'Issue invite' }).click();
    await page.getByRole('region', { name: 'Invite link' }).waitFor();
    await page
      .getByRole('table', { name: 'Invite tokens' })
      .getByRole('cell', { name: 'Admin', exact: true })
      .waitFor();
  });
});

describe('pagers after a row leaves the last page', () => {
  it('moves to the last page with rows when revoking the only key on page 2 of a project’s keys', async () => {
    const org = await anOrganization(w.h, undefined, 'Fifty-one keys');
    const project = await aProject(w.h, org, 'Keyring');
    for (let i = 1; i <= 51; i++) {
      const made = await w.h.http
        .post('/api/v1/api-keys')
        .set(bearer(org.admin.session))
        .send({ name: `Ring key ${String(i).padStart(2, '0')}`, projectId: project.id });
      expect(made.status).toBe(200);
    }
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, `/org/projects/${project.id}`);
    const pager = page.getByRole('navigation', { name: 'API keys of this project: pages' });
    await pager.getByText('Page 1 of 2 (51 in all)').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2 (51 in all)').waitFor();
    const keys = page.getByRole('table', { name: 'API keys of this project' });
    const rows = keys.locator('tbody tr');
    // The pager says page 2 at once; page 1's 50 rows stay shown (dimmed) until page 2's one row arrives.
    await rowsShown(page, 'API keys of this project', 1);
    expect(await rows.count()).toBe(1);
    const only = rows.first();
    await watchFor(page, 'Nobody has made a key for this project yet.');
    const name = (await only.locator('td').first().textContent()) ?? '';
    await only.getByRole('button', { name: 'Revoke', exact: true }).click();
    await only.getByRole('button', { name: `Revoke ${name} for good` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${name} (${org.admin.email}) was revoked.` })
      .waitFor();

    // Page 1 with its 50 keys, the pager gone (one page), and no "nobody has made a key".
    await rowsShown(page, 'API keys of this project', 50);
    await pager.waitFor({ state: 'detached' });
    expect(await wasShown(page)).toBe(false);
    await checkPage(page, 'project-keys-after-last-on-page');
  });
});

/**
 * On a list of `total` rows in two pages: goes to page 2 (its one row shown, never counted while page 1's rows are
 * still there), lets `act` take that row out of the list, then sees page 1 with all its rows and no pager, and the
 * list never said `empty`.
 */
async function emptyTheLastPage(
  page: Page,
  list: { table: string; total: number; empty: string },
  act: (row: Locator) => Promise<void>,
) {
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await pager.getByText(`Page 1 of 2 (${list.total} in all)`).waitFor();
  await pager.getByRole('button', { name: 'Next' }).click();
  await pager.getByText(`Page 2 of 2 (${list.total} in all)`).waitFor();
  await rowsShown(page, list.table, 1);
  await watchFor(page, list.empty);
  await act(page.getByRole('table', { name: list.table }).locator('tbody tr').first());
  await rowsShown(page, list.table, list.total - 1);
  await pager.waitFor({ state: 'detached' });
  expect(await wasShown(page)).toBe(false);
}

describe('pagers of templates and top-up codes after an action empties the last page', () => {
  it('deleting the only template on page 2 shows page 1 with its 50 rows, never "No templates."', async () => {
    const org = await anOrganization(w.h, undefined, 'Template Shelf');
    const auth = inOrg(org.admin, org.id);
    // Built-in templates (and any others' public ones) come first: the organization's own fill the list to 51.
    const listed = await w.h.http.get('/api/project-templates?size=100').set(auth);
    expect(listed.status).toBe(200);
    const before = listed.body.total as number;
    expect(before).toBeLessThan(51);
    for (let i = before + 1; i <= 51; i++) {
      const made = await w.h.http
        .post('/api/project-templates')
        .set(auth)
        .send({ name: `Shelf tier ${i}`, config: { quota: { dailyRequestLimit: i } } });
      expect(made.status).toBe(201);
    }
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, '/org/templates');
    await emptyTheLastPage(page, { table: 'Project templates', total: 51, empty: 'No templates.' }, async (only) => {
      // Page 2's one row is the organization's newest own template.
      await only.getByText('Shelf tier 51').waitFor();
      await only.getByRole('button', { name: 'Delete', exact: true }).click();
      await only.getByRole('button', { name: 'Delete for good' }).click();
    });
    const after = await w.h.http.get('/api/project-templates?size=100').set(auth);
    expect(after.body.total).toBe(50);
  });

  it('revoking the only active code on page 2 of active codes shows page 1 with its 25, never "No active codes."', async () => {
    const adminAuth = bearer((await signInAdmin(w.h)).token);
    const active = await w.h.http.get('/api/v1/admin/top-up-codes?status=active').set(adminAuth);
    expect(active.status).toBe(200);
    const before = active.body.total as number;
    expect(before).toBeLessThan(26);
    const issued = await w.h.http
      .post('/api/v1/admin/top-up-codes')
      .set(adminAuth)
      .send({ amount: '1.5', count: 26 - before, description: 'Pager batch' });
    expect(issued.status).toBe(201);

    const page = await w.newPage();
    await signIn(page, w.admin.email, w.admin.password, '/platform/top-up-codes');
    await page.getByLabel('Status').selectOption('active');
    // The revoked code leaves the active list.
    await emptyTheLastPage(page, { table: 'Top-up codes', total: 26, empty: 'No active codes.' }, async (only) => {
      await only.getByRole('button', { name: 'Revoke', exact: true }).click();
      await only.getByRole('button', { name: 'Revoke for good' }).click();
    });
    const after = await w.h.http.get('/api/v1/admin/top-up-codes?status=active').set(adminAuth);
    expect(after.body.total).toBe(25);
  });
});

/** The header's height in CSS pixels as laid out now. */
async function headerHeight(page: Page): Promise<number> {
  await laidOut(page);
  return (await page.locator('header.top').boundingBox())?.height ?? Number.NaN;
}

describe('removing the last member on a page of the organization’s members', () => {
  it('shows the page before with its rows, never "No members."', async () => {
    const org = await anOrganization(w.h, undefined, 'Twenty-one');
    const joined: TestUser[] = [];
    for (let i = 0; i < 20; i++) joined.push(await aMember(w.h, org));
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, '/org/members');
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByText('Page 1 of 2 (21 in all)').waitFor();
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 2 of 2 (21 in all)').waitFor();
    const table = page.getByRole('table', { name: 'Members' });
    const row = table.locator('tbody tr');
    // Page 1's 20 rows stay shown (dimmed) until page 2's one row arrives.
    await rowsShown(page, 'Members', 1);
    await watchFor(page, 'No members.');
    const name = (await row.first().locator('td').first().textContent()) ?? '';
    await row.first().getByRole('button', { name: 'Remove', exact: true }).click();
    await row
      .first()
      .getByRole('button', { name: `Remove ${name}` })
      .click();
    await rowsShown(page, 'Members', 20);
    await pager.waitFor({ state: 'detached' });
    expect(await wasShown(page)).toBe(false);
    expect(joined).toHaveLength(20);
  });
});

describe('a page kept in the address', () => {
  it('past the last page moves to the last page with items, replacing the address, so Back skips it', async () => {
    const page = await w.newPage();
    await page.goto('/hub/mcp');
    await page.locator('ul.cards > li').first().waitFor();
    // One item a page, so the last page is the item count: an address past it moves there.
    await page.goto('/hub/mcp?pageSize=1&page=999');
    const status = page.getByRole('status').filter({ hasText: /^[\d,]+ items$/ });
    await status.waitFor();
    const total = Number(((await status.textContent()) ?? '').replace(/\D/g, ''));
    expect(total).toBeGreaterThan(1);
    await page.waitForURL((url) => url.searchParams.get('page') === String(total));
    await page.locator('ul.cards > li').first().waitFor();
    expect(await page.getByText('Nothing matches these filters.').count()).toBe(0);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === '/hub/mcp' && url.search === '');
    await page.locator('ul.cards > li').first().waitFor();
  });
});

describe('the header on a phone', () => {
  it('is one line at 390 px with its areas, the organization switcher and the account behind Menu; wide, as before', async () => {
    const admin = await signInAdmin(w.h);
    const made = await w.h.http.post('/api/organizations').set(bearer(admin.token)).send({ name: 'Second Harbour' });
    expect(made.status).toBe(201);
    const page = await w.newPage();
    await page.setViewportSize(PHONE);
    await signIn(page, w.admin.email, w.admin.password, '/account');
    const header = page.locator('header.top');
    const menu = header.getByRole('button', { name: 'Menu' });
    const areas = header.getByRole('navigation', { name: 'Areas' });
    const switcher = header.getByRole('combobox', { name: 'Organization', exact: true });
    await menu.waitFor();
    expect(await headerHeight(page)).toBeLessThanOrEqual(120);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await areas.isVisible()).toBe(false);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-390-closed.png') });

    // Open: every area, the switcher and Sign out, nothing past the screen's edge; the switcher works from there.
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await areas.getByRole('link', { name: 'Platform' }).waitFor();
    for (const control of [
      areas.getByRole('link', { name: 'Organization' }),
      switcher,
      header.getByRole('button', { name: 'Sign out' }),
    ]) {
      const box = await control.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    }
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-390-open.png') });
    await switcher.selectOption({ label: 'Second Harbour (Admin)' });
    expect(await switcher.locator('option:checked').textContent()).toBe('Second Harbour (Admin)');

    // An area's link goes there and closes the menu; Escape closes it and gives the focus back to Menu.
    await areas.getByRole('link', { name: 'Organization' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/org'));
    await page.getByRole('heading', { name: 'Second Harbour', level: 1 }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await headerHeight(page)).toBeLessThanOrEqual(120);
    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await hasFocus(menu)).toBe(true);

    // A laptop's width: no Menu button, the areas and the switcher in the one header line.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await menu.isVisible()).toBe(false);
    expect(await areas.getByRole('link', { name: 'Platform' }).isVisible()).toBe(true);
    expect(await switcher.isVisible()).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-1280.png') });
    // 108 px before and after this change with this account (seven areas, two lines at 1280 px).
    expect(await headerHeight(page)).toBeLessThanOrEqual(110);
  });
});

describe('adding a member to a project', () => {
  it('offers a search by name or e-mail above five members, used by keyboard alone', async () => {
    const org = await anOrganization(w.h, undefined, 'Crowded Quay');
    const people: TestUser[] = [];
    for (let i = 0; i < 7; i++) people.push(await aMember(w.h, org));
    const project = await aProject(w.h, org, 'Pier');
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, `/org/projects/${project.id}`);
    const form = page.getByRole('form', { name: 'Add a member to the project' });
    const chooser = form.getByRole('combobox', { name: 'Member of the organization' });
    const find = form.getByRole('searchbox', { name: 'Find a member' });
    await find.waitFor();
    // The admin is in the project already: seven to choose from, then one by a part of their address.
    expect(await chooser.locator('option:not([value=""])').count()).toBe(7);
    const wanted = people[3] as TestUser;
    await find.focus();
    await page.keyboard.type((wanted.email.split('@')[0] ?? '').slice(-6).toUpperCase());
    await form.getByText('1 member matches.').waitFor();
    expect(await chooser.locator('option:not([value=""])').allTextContents()).toEqual([
      expect.stringContaining(wanted.email),
    ]);
    expect(await chooser.inputValue()).toBe(wanted.accountId);
    await checkPage(page, 'project-add-member-filter');
    await find.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'is now a Member of this project.' }).waitFor();
    await page.getByRole('table', { name: 'Project members' }).getByRole('cell', { name: wanted.email }).waitFor();
    expect(await find.inputValue()).toBe('');

    // Nothing matches: the select says so and nothing can be added.
    await find.fill('nobody-by-this-name');
    await form.getByText('No member matches.').waitFor();
    expect(await chooser.locator('option').allTextContents()).toEqual(['No member matches']);
    expect(await form.getByRole('button', { name: 'Add to project' }).isDisabled()).toBe(true);
  });
});

describe('a two-step confirmation', () => {
  it('puts the focus on the confirming button, and back on the first one after Escape or Keep', async () => {
    const org = await anOrganization(w.h, undefined, 'Focus Yard');
    await anInviteToken(w.h, org, { role: 'Member', description: 'Focus token' });
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, '/org/members');
    const row = page.getByRole('table', { name: 'Invite tokens' }).locator('tr', { hasText: 'Focus token' });
    const revoke = row.getByRole('button', { name: 'Revoke', exact: true });
    await revoke.focus();
    await page.keyboard.press('Enter');
    await row.getByRole('button', { name: 'Revoke for good' }).waitFor();
    expect(await focused(page)).toBe('Revoke for good');
    await page.keyboard.press('Escape');
    await revoke.waitFor();
    expect(await focused(page)).toBe('Revoke');

    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('Revoke for good');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Keep');
    await page.keyboard.press('Enter');
    await revoke.waitFor();
    expect(await focused(page)).toBe('Revoke');

    // A mouse click does the same; Enter on the focused confirming button revokes.
    await revoke.click();
    expect(await focused(page)).toBe('Revoke for good');
    await page.keyboard.press('Enter');
    await row.getByRole('cell', { name: 'revoked', exact: true }).waitFor();
  });
});
