// Console finishing touches: the phone header's Menu as a keyboard and a finger use it, finding any member of a large
// organization (the API searches, not the page), and the MCP draft's tools, resources, prompts and settings as rows of
// fields.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createActors, createDraft } from '../support/catalog-factory.js';
import { TEST_PASSWORD, uniqueEmail } from '../support/identity.js';
import { anOrganization, aProject, membersJoined, type TestOrg } from '../support/org-fixtures.js';
import {
  type ConsoleWorld,
  checkPage,
  focused,
  hasFocus,
  type McpDraftItem,
  mcpDraftVersion,
  openConsoleWorld,
  openNewMcpDraft,
  PHONE,
  rowsShown,
  SCREENSHOT_DIR,
  signIn,
} from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

describe('the phone header’s Menu', () => {
  it('takes the focus in and back, and closes on Escape, on a tap or click outside and on a chosen link', async () => {
    const page = await w.newPage({ viewport: PHONE, hasTouch: true });
    await signIn(page, w.admin.email, w.admin.password, '/account');
    const header = page.locator('header.top');
    const menu = header.getByRole('button', { name: 'Menu' });
    const areas = header.getByRole('navigation', { name: 'Areas' });
    const open = header.locator('button[aria-controls="top-menu"][aria-expanded="true"]');
    const closed = header.locator('button[aria-controls="top-menu"][aria-expanded="false"]');
    await closed.waitFor();

    // By keyboard: Enter opens it with the focus on its first link; Escape closes it and gives the focus to Menu.
    await menu.focus();
    await page.keyboard.press('Enter');
    await open.waitFor();
    expect(await hasFocus(areas.getByRole('link', { name: 'Hub' }))).toBe(true);
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-390-open-focus.png') });
    await page.keyboard.press('Escape');
    await closed.waitFor();
    expect(await hasFocus(menu)).toBe(true);

    // A link chosen by keyboard closes it, even the link of the page shown (the address does not change), and the
    // focus goes back to Menu rather than to the top of the page.
    await page.keyboard.press('Enter');
    await open.waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Account');
    await page.keyboard.press('Enter');
    await closed.waitFor();
    expect(new URL(page.url()).pathname).toBe('/account');
    expect(await hasFocus(menu)).toBe(true);

    // By finger: a link to another page closes it.
    await menu.tap();
    await open.waitFor();
    await areas.getByRole('link', { name: 'Organization' }).tap();
    await page.waitForURL((url) => url.pathname.startsWith('/org'));
    await closed.waitFor();
    expect(await areas.isVisible()).toBe(false);

    // A tap inside it (the account's name) leaves it open; a tap outside it (the page's heading) closes it.
    await menu.tap();
    await open.waitFor();
    await header.locator('.account-menu .muted').tap();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('heading', { level: 1 }).tap();
    await closed.waitFor();
    expect(await areas.isVisible()).toBe(false);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'header-390-closed-after-tap.png') });

    // A mouse click outside does the same.
    await menu.click();
    await open.waitFor();
    await page.getByRole('heading', { level: 1 }).click();
    await closed.waitFor();
  });
});

describe('finding a member of a large organization', () => {
  let org: TestOrg;
  const zelda = { name: 'Zelda Quayside', email: uniqueEmail('harbour-master') };
  let zeldaId: string;
  beforeAll(async () => {
    org = await anOrganization(w.h, undefined, 'Large Harbour');
    // 104 crew, then Zelda: with the Admin, 106 members, Zelda last (the 106th by joining order).
    const crew = Array.from({ length: 104 }, (_, i) => ({ name: `Crew ${i + 1}` }));
    const joined = await membersJoined(w.h, org, [...crew, zelda]);
    zeldaId = joined.at(-1)?.accountId ?? '';
  });

  /** The `q` of every member search the page sends. */
  function searchesOf(page: Page): string[] {
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      const q = url.searchParams.get('q');
      if (url.pathname === '/api/organization/members' && q !== null) asked.push(q);
    });
    return asked;
  }

  it('on a project, finds one beyond the first 100 loaded, asking the API once typing pauses, and adds her', async () => {
    const project = await aProject(w.h, org, 'Breakwater');
    const page = await w.newPage();
    const asked = searchesOf(page);
    await signIn(page, org.admin.email, org.admin.password, `/org/projects/${project.id}`);
    const form = page.getByRole('form', { name: 'Add a member to the project' });
    const chooser = form.getByRole('combobox', { name: 'Member of the organization' });
    const find = form.getByRole('searchbox', { name: 'Find a member' });
    await find.waitFor();
    // The first page of 100 (the Admin is in the project already: Crew 1–99) does not hold her.
    await chooser.locator('option', { hasText: 'Crew 99' }).waitFor({ state: 'attached' });
    expect(await chooser.locator('option', { hasText: 'Zelda' }).count()).toBe(0);

    await find.focus();
    await page.keyboard.type('quayside');
    await form.getByText('1 member matches.').waitFor();
    expect(await chooser.locator('option:not([value=""])').allTextContents()).toEqual([
      `${zelda.name} (${zelda.email})`,
    ]);
    expect(await chooser.inputValue()).toBe(zeldaId);
    // Asked after the pause, not once per key: the last search is the whole word.
    expect(asked.at(-1)).toBe('quayside');
    expect(asked.length).toBeLessThan('quayside'.length);
    await checkPage(page, 'project-find-member-beyond-100');
    await find.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Zelda Quayside is now a Member of this project.' }).waitFor();
    await page.getByRole('table', { name: 'Project members' }).getByRole('cell', { name: zelda.email }).waitFor();
    expect(await find.inputValue()).toBe('');
  });

  it('on the members page, finds members on any page, says when none match, and shows all again when cleared', async () => {
    const page = await w.newPage();
    await signIn(page, org.admin.email, org.admin.password, '/org/members');
    const pager = page.getByRole('navigation', { name: 'Pages' });
    const table = page.getByRole('table', { name: 'Members' });
    const find = page.getByRole('searchbox', { name: 'Find a member' });
    await pager.getByText('Page 1 of 6 (106 in all)').waitFor();

    await find.fill('HARBOUR-master');
    await page.getByText('1 member matches.').waitFor();
    await rowsShown(page, 'Members', 1);
    await table.getByRole('cell', { name: zelda.email }).waitFor();
    await pager.waitFor({ state: 'detached' });
    await checkPage(page, 'members-search');

    // "Crew 10" and "Crew 100"–"Crew 104".
    await find.fill('crew 10');
    await page.getByText('6 members match.').waitFor();
    await rowsShown(page, 'Members', 6);

    await find.fill('no such person');
    await page.getByText('No member matches "no such person".').waitFor();

    await find.fill('');
    await pager.getByText('Page 1 of 6 (106 in all)').waitFor();
    await rowsShown(page, 'Members', 20);
  });
});

const draftVersion = (publisherSession: string, id: string) => mcpDraftVersion(w, publisherSession, id);

const newMcpDraftPage = (item: McpDraftItem) => openNewMcpDraft(w, item);

describe('an MCP draft’s tools', () => {
  const readTools = async (publisherSession: string, id: string) => (await draftVersion(publisherSession, id)).tools;

  it('are rows of name and description: two added (and one removed) are saved as the API takes them', async () => {
    const { actors, page } = await newMcpDraftPage({
      slug: 'tide-tables',
      name: 'Tide tables',
      summary: 'High and low tides for any harbour.',
      description: 'Tide times and heights from the harbour authority.',
    });
    const tools = page.getByRole('group', { name: 'Tools' });
    await tools.getByText('No tools yet.').waitFor();

    // "Add a tool" puts the focus on the new row's name, so a keyboard types it at once.
    await tools.getByRole('button', { name: 'Add a tool' }).click();
    expect(await hasFocus(tools.getByLabel('Tool 1 name'))).toBe(true);
    await page.keyboard.type('high_tide');
    await tools.getByLabel('Tool 1 description').fill('Next high tide');
    await tools.getByRole('button', { name: 'Add a tool' }).click();
    await tools.getByLabel('Tool 2 name').fill('low_tide');
    await tools.getByLabel('Tool 2 description').fill('Next low tide');
    await tools.getByRole('button', { name: 'Add a tool' }).click();
    await tools.getByLabel('Tool 3 name').fill('wrong_one');
    await tools.getByRole('button', { name: 'Remove tool 3' }).click();
    await tools.getByLabel('Tool 3 name').waitFor({ state: 'detached' });
    await checkPage(page, 'new-draft-tools');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { name: 'Tide tables', level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1) ?? '';

    expect(await readTools(actors.publisher.session, id)).toEqual([
      { name: 'high_tide', description: 'Next high tide' },
      { name: 'low_tide', description: 'Next low tide' },
    ]);
    // The draft's page shows them as rows again.
    expect(await tools.getByLabel('Tool 2 name').inputValue()).toBe('low_tide');
  });

  it('shows its input schema and annotations in fields, and keeps them through an edit', async () => {
    const actors = await createActors(w.h);
    const inputSchema = { type: 'object', properties: { harbour: { type: 'string' } }, required: ['harbour'] };
    const draft = await createDraft(w.h, actors, 'mcp', {
      name: 'Harbour status',
      version: {
        tools: [
          { name: 'berths', description: 'Free berths', inputSchema, annotations: { readOnlyHint: true } },
          { name: 'weather', description: 'Harbour weather' },
        ],
      },
    });
    const page = await w.newPage();
    await signIn(page, actors.publisher.email, TEST_PASSWORD, `/publisher/mcp/${draft.id}`);
    const tools = page.getByRole('group', { name: 'Tools' });
    expect(await tools.getByLabel('Tool 1 name').inputValue()).toBe('berths');
    // They are fields of the row now (mcp-tool-fields.test.ts): nothing is only "kept as it came".
    expect(JSON.parse(await tools.getByLabel('Tool 1 input schema').inputValue())).toEqual(inputSchema);
    expect(await tools.getByLabel('Tool 1 read-only hint').inputValue()).toBe('true');
    expect(await page.getByText(/Also kept as it came/).count()).toBe(0);

    // A tool without a name is refused in the page, as the API would.
    await tools.getByLabel('Tool 2 name').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await tools.getByText('Tool 2: name: Must not be empty.', { exact: true }).waitFor();
    await tools.getByRole('button', { name: 'Remove tool 2' }).click();
    await tools.getByLabel('Tool 1 description').fill('Free berths now');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect(await readTools(actors.publisher.session, draft.id)).toEqual([
      { name: 'berths', description: 'Free berths now', inputSchema, annotations: { readOnlyHint: true } },
    ]);
  });
});

describe('an MCP draft’s resources, prompts and settings', () => {
  const readVersion = async (publisherSession: string, id: string) => {
    const { resources, prompts, configFields } = await draftVersion(publisherSession, id);
    return { resources, prompts, configFields };
  };

  it('are rows: two resources, a prompt and a secret setting are saved as the API takes them, then edited at 390 px', async () => {
    const { actors, page } = await newMcpDraftPage({
      slug: 'harbour-charts',
      name: 'Harbour charts',
      summary: 'Charts and soundings for any harbour.',
      description: 'Nautical charts from the hydrographic office.',
    });

    const resources = page.getByRole('group', { name: 'Resources' });
    await resources.getByText('No resources yet.').waitFor();
    await resources.getByRole('button', { name: 'Add a resource' }).click();
    expect(await hasFocus(resources.getByLabel('Resource 1 name'))).toBe(true);
    await page.keyboard.type('charts');
    await resources.getByLabel('Resource 1 URI').fill('charts://index');
    await resources.getByLabel('Resource 1 description').fill('Every chart by harbour');
    await resources.getByRole('button', { name: 'Add a resource' }).click();
    await resources.getByLabel('Resource 2 name').fill('soundings');
    await resources.getByLabel('Resource 2 URI').fill('charts://soundings');
    const prompts = page.getByRole('group', { name: 'Prompts' });
    await prompts.getByText('No prompts yet.').waitFor();
    await prompts.getByRole('button', { name: 'Add a prompt' }).click();
    await prompts.getByLabel('Prompt 1 name').fill('plan_approach');
    await prompts.getByLabel('Prompt 1 description').fill('Plan an approach to a berth');
    const settings = page.getByRole('group', { name: 'Settings' });
    await settings.getByRole('button', { name: 'Add a setting' }).click();
    expect(await settings.getByLabel('Setting 1 type').inputValue()).toBe('string');
    await settings.getByLabel('Setting 1 name').fill('CHARTS_API_KEY');
    await settings.getByLabel('Setting 1 type').selectOption('secret');
    await settings.getByLabel('Setting 1 required').check();
    await settings.getByLabel('Setting 1 description').fill('Key from the hydrographic office');

    // A resource without a name is refused in the page, naming its row, as the API would.
    await resources.getByRole('button', { name: 'Add a resource' }).click();
    await resources.getByLabel('Resource 3 URI').fill('charts://nameless');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await resources.getByText('Resource 3: name: Must not be empty.', { exact: true }).waitFor();
    await resources.getByRole('button', { name: 'Remove resource 3' }).click();
    await resources.getByLabel('Resource 3 name').waitFor({ state: 'detached' });
    await checkPage(page, 'new-draft-entries');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByRole('heading', { name: 'Harbour charts', level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').at(-1) ?? '';

    expect(await readVersion(actors.publisher.session, id)).toEqual({
      resources: [
        { name: 'charts', uri: 'charts://index', description: 'Every chart by harbour' },
        { name: 'soundings', uri: 'charts://soundings' },
      ],
      prompts: [{ name: 'plan_approach', description: 'Plan an approach to a berth' }],
      configFields: [
        { name: 'CHARTS_API_KEY', type: 'secret', required: true, description: 'Key from the hydrographic office' },
      ],
    });

    // On a phone: the draft's page shows them as rows again; one edited, one removed.
    const phone = await w.newPage({ viewport: PHONE });
    await signIn(phone, actors.publisher.email, TEST_PASSWORD, `/publisher/mcp/${id}`);
    const onPhone = phone.getByRole('group', { name: 'Resources' });
    expect(await onPhone.getByLabel('Resource 2 URI').inputValue()).toBe('charts://soundings');
    expect(await phone.getByLabel('Setting 1 type').inputValue()).toBe('secret');
    expect(await phone.getByLabel('Setting 1 required').isChecked()).toBe(true);
    await onPhone.getByLabel('Resource 2 description').fill('Depths at chart datum');
    await onPhone.getByRole('button', { name: 'Remove resource 1' }).click();
    await onPhone.getByLabel('Resource 2 name').waitFor({ state: 'detached' });
    expect(await onPhone.getByLabel('Resource 1 name').inputValue()).toBe('soundings');
    await phone.getByLabel('Setting 1 required').uncheck();
    await checkPage(phone, 'draft-entries-phone');
    await phone.getByRole('button', { name: 'Save changes' }).click();
    await phone.getByText('Saved.', { exact: true }).waitFor();
    expect(await readVersion(actors.publisher.session, id)).toEqual({
      resources: [{ name: 'soundings', uri: 'charts://soundings', description: 'Depths at chart datum' }],
      prompts: [{ name: 'plan_approach', description: 'Plan an approach to a berth' }],
      configFields: [
        { name: 'CHARTS_API_KEY', type: 'secret', required: false, description: 'Key from the hydrographic office' },
      ],
    });
  });

  it('keeps a resource’s MIME type, a prompt’s arguments and a setting’s default through an edit', async () => {
    const actors = await createActors(w.h);
    const args = [{ name: 'harbour', description: 'Harbour name', required: true }];
    const draft = await createDraft(w.h, actors, 'mcp', {
      name: 'Harbour pilots',
      version: {
        resources: [{ name: 'pilots', uri: 'pilots://roster', mimeType: 'application/json' }],
        prompts: [{ name: 'book_pilot', arguments: args }],
        configFields: [{ name: 'PILOT_REGION', label: 'Region', type: 'string', default: 'north' }],
      },
    });
    const page = await w.newPage();
    await signIn(page, actors.publisher.email, TEST_PASSWORD, `/publisher/mcp/${draft.id}`);
    expect(await page.getByLabel('Resource 1 MIME type').inputValue()).toBe('application/json');
    // A prompt's arguments and a setting's label and default are fields of their own (mcp-draft-rows.test.ts).
    expect(await page.getByLabel('Prompt 1 argument 1 name').inputValue()).toBe('harbour');
    expect(await page.getByLabel('Setting 1 default').inputValue()).toBe('north');
    await page.getByLabel('Prompt 1 description').fill('Book a harbour pilot');
    await page.getByLabel('Setting 1 name').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page
      .getByRole('group', { name: 'Settings' })
      .getByText('Setting 1: name: Must not be empty.', { exact: true })
      .waitFor();
    await page.getByLabel('Setting 1 name').fill('PILOT_AREA');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    expect(await readVersion(actors.publisher.session, draft.id)).toEqual({
      resources: [{ name: 'pilots', uri: 'pilots://roster', mimeType: 'application/json' }],
      prompts: [{ name: 'book_pilot', description: 'Book a harbour pilot', arguments: args }],
      configFields: [{ name: 'PILOT_AREA', label: 'Region', type: 'string', required: false, default: 'north' }],
    });
  });
});
