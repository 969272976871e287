// Console gaps: an MCP draft row's errors follow the row (and go with it), a setting's label and default and a
// prompt's arguments are fields of their own checked as the API checks them (and the API's refusal is shown against
// its row), the review queue's and the reports' pagers, and the phone Menu closing when Tab leaves it.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createActors, createDraft, submit } from '../support/catalog-factory.js';
import { bearer, createUser, signInAdmin, TEST_PASSWORD } from '../support/identity.js';
import {
  type ConsoleWorld,
  checkPage,
  hasFocus,
  mcpDraftVersion,
  openConsoleWorld,
  openNewMcpDraft,
  PHONE,
  rowsShown,
  SCREENSHOT_DIR,
  signIn,
  wasShown,
  watchFor,
  watchForFromStart,
} from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

const draftVersion = (publisherSession: string, id: string) => mcpDraftVersion(w, publisherSession, id);

/** The text of every error shown in the element. */
const errorsIn = (page: Page, group: string) =>
  page.getByRole('group', { name: group, exact: true }).locator('.field-error').allTextContents();

describe('an MCP draft row’s error', () => {
  it('follows its row when a row before it is removed, and goes with it when it is removed', async () => {
    const { actors, page } = await openNewMcpDraft(w, {
      slug: 'buoy-lights',
      name: 'Buoy lights',
      summary: 'Light characters of every buoy.',
      description: 'Buoyage from the lighthouse authority.',
    });
    const resources = page.getByRole('group', { name: 'Resources' });
    await resources.getByRole('button', { name: 'Add a resource' }).click();
    await resources.getByLabel('Resource 1 name').fill('lights');
    await resources.getByRole('button', { name: 'Add a resource' }).click();
    await resources.getByLabel('Resource 2 URI').fill('buoys://nameless');
    await resources.getByRole('button', { name: 'Add a resource' }).click();
    await resources.getByLabel('Resource 3 name').fill('wrecks');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await resources.getByText('Resource 2: name: Must not be empty.', { exact: true }).waitFor();
    await page.getByText('Some fields need a change: resources.', { exact: true }).waitFor();

    // Resource 1 removed: the nameless row is now resource 1, and its error says so; resource 2 has none.
    await resources.getByRole('button', { name: 'Remove resource 1', exact: true }).click();
    await resources.getByText('Resource 1: name: Must not be empty.', { exact: true }).waitFor();
    expect(await errorsIn(page, 'Resources')).toEqual(['Resource 1: name: Must not be empty.']);
    expect(await resources.getByLabel('Resource 1 URI').inputValue()).toBe('buoys://nameless');
    // The error is the named field's own (aria-invalid, and its description), and moved with the row.
    expect(await resources.getByLabel('Resource 1 name').getAttribute('aria-invalid')).toBe('true');
    expect(await resources.getByLabel('Resource 2 name').getAttribute('aria-invalid')).toBeNull();
    await checkPage(page, 'draft-row-error-follows');

    // The row removed: its error goes with it, and the form no longer says a field needs a change.
    await resources.getByRole('button', { name: 'Remove resource 1', exact: true }).click();
    await resources.getByLabel('Resource 2 name').waitFor({ state: 'detached' });
    expect(await errorsIn(page, 'Resources')).toEqual([]);
    expect(await page.getByText('Some fields need a change: resources.', { exact: true }).count()).toBe(0);
    await checkPage(page, 'draft-row-error-gone');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { name: 'Buoy lights', level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1) ?? '';
    expect((await draftVersion(actors.publisher.session, id)).resources).toEqual([{ name: 'wrecks' }]);
  });
});

describe('an MCP draft’s setting labels and defaults and prompt arguments', () => {
  it('are fields checked as the API checks them, typed by the setting’s type, with the API’s refusal on its row', async () => {
    const actors = await createActors(w.h);
    const draft = await createDraft(w.h, actors, 'mcp', {
      name: 'Harbour pilots',
      version: {
        prompts: [
          { name: 'book_pilot', arguments: [{ name: 'harbour', description: 'Harbour name', required: true }] },
        ],
        configFields: [{ name: 'PILOT_REGION', label: 'Region', type: 'string', default: 'north' }],
      },
    });
    const page = await w.newPage();
    await signIn(page, actors.publisher.email, TEST_PASSWORD, `/publisher/mcp/${draft.id}`);
    const prompts = page.getByRole('group', { name: 'Prompts' });
    const settings = page.getByRole('group', { name: 'Settings' });
    // What they came with is shown in their fields; nothing is only "kept as it came" any more.
    expect(await prompts.getByLabel('Prompt 1 argument 1 name').inputValue()).toBe('harbour');
    expect(await prompts.getByLabel('Prompt 1 argument 1 description').inputValue()).toBe('Harbour name');
    expect(await prompts.getByLabel('Prompt 1 argument 1 required').isChecked()).toBe(true);
    expect(await settings.getByLabel('Setting 1 label').inputValue()).toBe('Region');
    expect(await settings.getByLabel('Setting 1 default').inputValue()).toBe('north');
    expect(await page.getByText(/Also kept as it came/).count()).toBe(0);

    // A second argument ("Add an argument to prompt 1" puts the focus on its name), not required.
    await prompts.getByRole('button', { name: 'Add an argument to prompt 1' }).click();
    expect(await hasFocus(prompts.getByLabel('Prompt 1 argument 2 name'))).toBe(true);
    await page.keyboard.type('arrival');
    await prompts.getByLabel('Prompt 1 argument 2 description').fill('Arrival time, UTC');
    // A number setting's default is a number; a boolean's is chosen.
    await settings.getByRole('button', { name: 'Add a setting' }).click();
    await settings.getByLabel('Setting 2 name').fill('PILOT_DRAUGHT');
    await settings.getByLabel('Setting 2 type').selectOption('number');
    await settings.getByLabel('Setting 2 default').fill('7.5');
    await settings.getByRole('button', { name: 'Add a setting' }).click();
    await settings.getByLabel('Setting 3 name').fill('PILOT_NIGHT');
    await settings.getByLabel('Setting 3 type').selectOption('boolean');
    expect(await settings.getByLabel('Setting 3 default').locator('option').allTextContents()).toEqual([
      'none',
      'true',
      'false',
    ]);
    await settings.getByLabel('Setting 3 default').selectOption('false');

    // The API's limits, refused in the page against the row and field: a label of 201 characters, a nameless argument.
    await settings.getByLabel('Setting 1 label').fill('R'.repeat(201));
    await prompts.getByLabel('Prompt 1 argument 1 name').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await settings.getByText('Setting 1: label: Must have at most 200 characters.', { exact: true }).waitFor();
    await prompts.getByText('Prompt 1 argument 1: name: Must not be empty.', { exact: true }).waitFor();
    await checkPage(page, 'draft-arguments-defaults-errors');
    await settings.getByLabel('Setting 1 label').fill('Pilot region');
    await prompts.getByLabel('Prompt 1 argument 1 name').fill('harbour');

    // What the API refuses beyond the page's check shows against its row too. The page checks with the API's own
    // schema, so a request changed on its way (argument 2's description past the API's 1,000 characters) stands in
    // for such a refusal; the 400 and its field paths are the API's own.
    const saveRoute = `**/api/v1/publisher/mcp/${draft.id}/draft`;
    await page.route(saveRoute, async (route) => {
      const body = route.request().postDataJSON() as {
        version: { prompts: { arguments: { description: string }[] }[] };
      };
      const second = body.version.prompts[0]?.arguments[1];
      if (second) second.description = 'd'.repeat(1001);
      await route.continue({ postData: JSON.stringify(body) });
    });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await prompts
      .getByText('Prompt 1 argument 2: description: Must have at most 1000 characters.', { exact: true })
      .waitFor();
    expect(await prompts.getByLabel('Prompt 1 argument 2 description').getAttribute('aria-invalid')).toBe('true');
    expect(await errorsIn(page, 'Settings')).toEqual([]);
    await page.unroute(saveRoute);

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect(await errorsIn(page, 'Prompts')).toEqual([]);
    await checkPage(page, 'draft-arguments-defaults');
    const saved = await draftVersion(actors.publisher.session, draft.id);
    expect({ prompts: saved.prompts, configFields: saved.configFields }).toEqual({
      prompts: [
        {
          name: 'book_pilot',
          arguments: [
            { name: 'harbour', description: 'Harbour name', required: true },
            { name: 'arrival', description: 'Arrival time, UTC' },
          ],
        },
      ],
      configFields: [
        { name: 'PILOT_REGION', label: 'Pilot region', type: 'string', required: false, default: 'north' },
        { name: 'PILOT_DRAUGHT', type: 'number', required: false, default: 7.5 },
        { name: 'PILOT_NIGHT', type: 'boolean', required: false, default: false },
      ],
    });

    // Read back after a reload, and an argument removed.
    await page.reload();
    expect(await settings.getByLabel('Setting 2 default').inputValue()).toBe('7.5');
    expect(await settings.getByLabel('Setting 3 default').inputValue()).toBe('false');
    await prompts.getByRole('button', { name: 'Remove prompt 1 argument 1', exact: true }).click();
    expect(await prompts.getByLabel('Prompt 1 argument 1 name').inputValue()).toBe('arrival');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect((await draftVersion(actors.publisher.session, draft.id)).prompts).toEqual([
      { name: 'book_pilot', arguments: [{ name: 'arrival', description: 'Arrival time, UTC' }] },
    ]);
  });
});

/** Pages the list of 41 (20, 20 and 1) forward and back, counting rows and reading the pager. */
async function pageThrough(page: Page, table: string, address: string) {
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await pager.getByText('Page 1 of 3 (41 in all)', { exact: true }).waitFor();
  await rowsShown(page, table, 20);
  expect(await pager.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
  await pager.getByRole('button', { name: 'Next' }).click();
  await pager.getByText('Page 2 of 3 (41 in all)', { exact: true }).waitFor();
  await page.waitForURL((url) => url.pathname === address && url.searchParams.get('page') === '2');
  await pager.getByRole('button', { name: 'Next' }).click();
  await pager.getByText('Page 3 of 3 (41 in all)', { exact: true }).waitFor();
  await rowsShown(page, table, 1);
  expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
  await pager.getByRole('button', { name: 'Previous' }).click();
  await pager.getByText('Page 2 of 3 (41 in all)', { exact: true }).waitFor();
  await rowsShown(page, table, 20);
}

describe('the review queue’s and the reports’ pagers', () => {
  it('page a queue of 41 by 20, and an address past the last page shows the last, never "Nothing is waiting"', async () => {
    const admin = bearer((await signInAdmin(w.h)).token);
    const before = await w.h.http.get('/api/v1/moderation/queue?pageSize=1').set(admin);
    expect(before.status).toBe(200);
    const waiting = before.body.total as number;
    expect(waiting).toBeLessThanOrEqual(41);
    const actors = await createActors(w.h);
    for (let i = waiting + 1; i <= 41; i++) {
      const draft = await createDraft(w.h, actors, 'agent', { name: `Queue agent ${String(i).padStart(2, '0')}` });
      expect((await submit(w.h, actors, 'agent', draft.id)).status).toBe(200);
    }
    const page = await w.newPage();
    await signIn(page, w.admin.email, w.admin.password, '/moderation');
    await pageThrough(page, 'Review queue', '/moderation');
    await checkPage(page, 'moderation-queue-page-2');

    // An address past the last page (the queue emptied since it was written down) moves to page 3; the empty
    // sentence never shows meanwhile.
    await watchForFromStart(page, 'Nothing is waiting for review.');
    await page.goto('/moderation?page=9');
    await page.waitForURL((url) => url.searchParams.get('page') === '3');
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByText('Page 3 of 3 (41 in all)', { exact: true })
      .waitFor();
    await rowsShown(page, 'Review queue', 1);
    expect(await wasShown(page)).toBe(false);
  });

  it('page 41 open reports by 20; resolving the only one on page 3 shows page 2, never "No open reports."', async () => {
    const admin = bearer((await signInAdmin(w.h)).token);
    const before = await w.h.http.get('/api/v1/moderation/reports?status=open&pageSize=1').set(admin);
    expect(before.status).toBe(200);
    const open = before.body.total as number;
    expect(open).toBeLessThanOrEqual(41);
    // One open report per account and item: each from an account of its own.
    for (let i = open + 1; i <= 41; i++) {
      const reporter = await createUser(w.h, { name: `Reporter ${i}` });
      const made = await w.h.http
        .post('/api/v1/mcp/github/report')
        .set(bearer(reporter.session))
        .send({ reason: `Broken link ${String(i).padStart(2, '0')}` });
      expect(made.status).toBe(200);
    }
    const page = await w.newPage();
    await signIn(page, w.admin.email, w.admin.password, '/moderation/reports');
    await pageThrough(page, 'Reports', '/moderation/reports');
    await checkPage(page, 'moderation-reports-page-2');

    const pager = page.getByRole('navigation', { name: 'Pages' });
    await pager.getByRole('button', { name: 'Next' }).click();
    await pager.getByText('Page 3 of 3 (41 in all)', { exact: true }).waitFor();
    await rowsShown(page, 'Reports', 1);
    await watchFor(page, 'No open reports.');
    const only = page.getByRole('table', { name: 'Reports' }).locator('tbody tr').first();
    await only.getByRole('textbox').fill('Link fixed');
    await only.getByRole('button', { name: 'Resolve' }).click();
    await pager.getByText('Page 2 of 2 (40 in all)', { exact: true }).waitFor();
    await rowsShown(page, 'Reports', 20);
    await page.waitForURL((url) => url.searchParams.get('page') === '2');
    expect(await wasShown(page)).toBe(false);
    const after = await w.h.http.get('/api/v1/moderation/reports?status=open&pageSize=1').set(admin);
    expect(after.body.total).toBe(40);
  });
});

describe('the phone header’s Menu and Tab', () => {
  it('closes when Tab takes the focus past its last control, leaving the focus on the page; Shift+Tab to Menu keeps it', async () => {
    const page = await w.newPage({ viewport: PHONE });
    await signIn(page, w.admin.email, w.admin.password, '/account');
    const header = page.locator('header.top');
    const menu = header.getByRole('button', { name: 'Menu' });
    const box = header.locator('#top-menu');
    const open = header.locator('button[aria-controls="top-menu"][aria-expanded="true"]');
    const closed = header.locator('button[aria-controls="top-menu"][aria-expanded="false"]');
    await closed.waitFor();
    // The page's own controls first: with none shown yet (the account still loading), Tab past the menu's last control
    // leaves the document, which is not a leaving of the menu, and it stays open (a run under load waited here so).
    await page.locator('main').locator('a[href], button:not([disabled]), input:not([disabled])').first().waitFor();
    const focusInBox = () => box.evaluate((b) => b.contains(b.ownerDocument.activeElement));

    // Shift+Tab from its first link goes back to Menu, which is its own button: it stays open.
    await menu.focus();
    await page.keyboard.press('Enter');
    await open.waitFor();
    // Opening moves the focus into it (an effect after the render that shows it open).
    await page.waitForFunction(() => {
      const d = (
        globalThis as unknown as {
          document: { querySelector(s: string): { contains(n: unknown): boolean } | null; activeElement: unknown };
        }
      ).document;
      return d.querySelector('#top-menu')?.contains(d.activeElement) ?? false;
    });
    await page.keyboard.press('Shift+Tab');
    expect(await hasFocus(menu)).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');

    // Tab through every control of it, and once more: the focus leaves it, and it closes.
    await page.keyboard.press('Tab');
    const controls = await box.locator('a[href], button:not([disabled]), select:not([disabled])').count();
    for (let i = 1; i < controls; i++) {
      await page.keyboard.press('Tab');
      expect(await focusInBox()).toBe(true);
    }
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-390-open-last-control.png') });
    await page.keyboard.press('Tab');
    await closed.waitFor();
    expect(await box.isVisible()).toBe(false);
    // The focus is where Tab put it: on the page under the header, on a control a person can see.
    type Shown = { closest(s: string): unknown; getClientRects(): { length: number } };
    const outside = await page.evaluate(() => {
      const active = (globalThis as unknown as { document: { activeElement: Shown | null } }).document.activeElement;
      return {
        inHeader: Boolean(active?.closest('header')),
        inMain: Boolean(active?.closest('main')),
        shown: Boolean(active && active.getClientRects().length > 0),
      };
    });
    expect(outside).toEqual({ inHeader: false, inMain: true, shown: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-390-closed-after-tab.png') });
  });
});
