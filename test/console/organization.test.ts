// The organization pages in the browser: switching organizations, invites (a link and a CSV file with its per-row
// report), joining by link, projects from a template (its key shown once), quotas, the wallet (recharge, a gateway
// call's Consume, the balance chart moving, filters, CSV export) and balance alerts with a test delivery.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { waitUntil } from '../support/harness.js';
import { bearer, createUser, signInAdmin, uniqueEmail } from '../support/identity.js';
import { anOrganization, aProject, inOrg } from '../support/org-fixtures.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, SCREENSHOT_DIR, signIn } from './console-world.js';

/** The projects page's page size (console/src/pages/organization/projects-api.ts). */
const PROJECTS_PAGE_SIZE = 50;

let w: ConsoleWorld;
let admin: Page;
let projectKey = '';
let hook: Server;
const deliveries: { headers: IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  w = await openConsoleWorld();
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  hook.listen(0, '127.0.0.1');
  await new Promise((r) => hook.once('listening', r));
  admin = await w.newPage();
  await signIn(admin, w.admin.email, w.admin.password, '/org');
});
afterAll(async () => {
  await new Promise((r) => hook?.close(r));
  await w?.close();
});

const chartValues = async (page: Page) => page.getByTestId('chart-data').locator('tbody td').allTextContents();

describe('the organization pages', () => {
  it('lists my organizations, creates one and switches between them', async () => {
    await admin.getByRole('table', { name: 'My organizations' }).getByText('Default organization').waitFor();
    await admin.getByLabel('New organization name').fill('Side project');
    await admin.getByRole('button', { name: 'Create organization' }).click();
    await admin.getByRole('heading', { name: 'Side project', level: 1 }).waitFor();
    const switcher = admin.getByRole('combobox', { name: 'Organization', exact: true });
    expect(await switcher.locator('option:checked').textContent()).toBe('Side project (Admin)');
    await admin.getByRole('button', { name: 'Switch to Default organization' }).click();
    await admin.getByRole('heading', { name: 'Default organization', level: 1 }).waitFor();
    // The switcher shows the whole of the chosen name and role (a 190px cap cut "Default organization (Admin)").
    const cut = await switcher.evaluate((element) => {
      const select = element as unknown as {
        clientWidth: number;
        selectedOptions: ArrayLike<{ textContent: string | null }>;
      };
      type Canvas = { getContext(kind: '2d'): { font: string; measureText(text: string): { width: number } } };
      type Style = Record<'fontWeight' | 'fontSize' | 'fontFamily' | 'paddingLeft' | 'paddingRight', string>;
      const page = globalThis as unknown as {
        document: { createElement(tag: 'canvas'): Canvas };
        getComputedStyle(element: unknown): Style;
      };
      const style = page.getComputedStyle(select);
      const context = page.document.createElement('canvas').getContext('2d');
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.selectedOptions[0]?.textContent ?? '';
      // Room for the text: the box without its padding and the drop-down arrow (about 20px).
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      const width = context.measureText(text).width;
      return width > room ? `${text} needs ${width}px, has ${room}px` : '';
    });
    expect(cut).toBe('');
    await checkPage(admin, 'organization');
  });

  it("a new organization's empty pages say what to do next, and a new project leads to its key", async () => {
    const switcher = admin.getByRole('combobox', { name: 'Organization', exact: true });
    await switcher.selectOption({ label: 'Side project (Admin)' });
    await admin.goto('/org/projects');
    await admin
      .getByText('No projects yet. Create the first one above: from a template it comes with its quota and an API key.')
      .waitFor();
    await admin.goto('/gateway');
    await admin
      .getByText('This organization has no projects yet. Gateway calls belong to a project: create one')
      .waitFor();
    await admin.getByRole('link', { name: 'the Projects page' }).waitFor();
    await admin.goto('/org/wallet');
    await admin.getByText('No records yet. Money comes in as a Recharge').waitFor();
    await admin.getByLabel('Type').selectOption('Refund');
    await admin.getByText('No records match these filters.').waitFor();

    // A blank project (no key to show) still says it was made, with a way to it.
    await admin.goto('/org/projects');
    await admin.getByLabel('Project name').fill('First light');
    await admin.getByRole('button', { name: 'Create project' }).click();
    await admin.getByRole('status').filter({ hasText: 'Project First light created.' }).getByRole('link').click();
    await admin.getByRole('heading', { name: 'First light', level: 1 }).waitFor();
    const projectId = new URL(admin.url()).pathname.split('/').pop() ?? '';
    await admin.getByRole('link', { name: 'make an API key for this project' }).click();
    await admin.waitForURL(`**/account/keys?project=${projectId}`);
    expect(await admin.getByLabel('Project (for the gateway)', { exact: true }).inputValue()).toBe(projectId);
    await admin.goto(`/gateway/${projectId}`);
    await admin.getByText(`No gateway requests yet. Send one to ${w.baseUrl}/v1/messages with an API key`).waitFor();

    await switcher.selectOption({ label: 'Default organization (Admin)' });
    await admin.goto('/org');
    await admin.getByRole('heading', { name: 'Default organization', level: 1 }).waitFor();
  });

  it('issues an invite link shown once, and a visitor joins with it by creating an account', async () => {
    await admin.goto('/org/members');
    await admin.getByRole('button', { name: 'Issue invite' }).click();
    const link = (await admin.getByTestId('shown-once').textContent()) ?? '';
    expect(link).toMatch(new RegExp(`^${w.baseUrl}/join/\\S+$`));

    const visitor = await w.newPage();
    await visitor.goto(link.replace(w.baseUrl, ''));
    await visitor.getByRole('heading', { name: 'Join Default organization' }).waitFor();
    const email = uniqueEmail('joiner');
    await visitor.getByLabel('E-mail').fill(email);
    await visitor.getByLabel('Name').fill('Jo Joiner');
    await visitor.getByLabel('Password').fill('joiner-password-1');
    await visitor.getByRole('button', { name: 'Create account and join' }).click();
    await visitor.waitForURL('**/org');
    await visitor.getByRole('table', { name: 'My organizations' }).getByText('Member').waitFor();
    // A Member sees no invite or CSV tools.
    await visitor.goto('/org/members');
    await visitor.getByRole('table', { name: 'Members' }).getByText(email).waitFor();
    expect(await visitor.getByRole('heading', { name: 'Invite tokens' }).count()).toBe(0);

    await admin.reload();
    await admin.getByRole('table', { name: 'Members' }).getByText(email).waitFor();
    const used = admin.getByRole('table', { name: 'Invite tokens' }).locator('tr', { hasText: '1 of 1' });
    await used.getByText('used up').waitFor();
  });

  it('invites people from a CSV file and shows the per-row report', async () => {
    await admin.goto('/org/members');
    const ok = uniqueEmail('csv');
    const csv = [
      'email,name,role',
      `${ok},Casey Csv,Member`,
      'not-an-email,Bad Mail,Member',
      `${uniqueEmail('role')},Bad Role,Owner`,
      `${w.admin.email},Already Here,Admin`,
      `${ok.toUpperCase()},Casey Again,Member`,
    ].join('\n');
    await admin
      .getByLabel('CSV file')
      .setInputFiles({ name: 'team.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await admin.getByRole('button', { name: 'Invite everyone' }).click();
    const report = admin.getByRole('table', { name: 'Bulk invite report' });
    await report.waitFor();
    const statuses = await report.locator('tbody tr td:nth-child(5)').allTextContents();
    expect(statuses).toEqual(['Success', 'Failed', 'Failed', 'Duplicate', 'Duplicate']);
    // The invitee's link, shown this once: it opens the console's join page.
    const link = await report.locator('tr', { hasText: 'Success' }).locator('code').textContent();
    expect(link).toMatch(new RegExp(`^${w.baseUrl}/join/\\S+$`));
    expect(await admin.getByRole('status').filter({ hasText: 'rows:' }).textContent()).toBe(
      '5 rows: 1 invited, 2 failed, 2 duplicates.',
    );
    await checkPage(admin, 'members');
  });

  it('revokes an invite and removes a member only after a second click', async () => {
    await admin.goto('/org/members');
    await admin.getByLabel('Description').fill('Revoke me');
    await admin.getByRole('button', { name: 'Issue invite' }).click();
    await admin.getByTestId('shown-once').waitFor();
    const invite = admin.getByRole('table', { name: 'Invite tokens' }).locator('tr', { hasText: 'Revoke me' });
    await invite.getByRole('button', { name: 'Revoke', exact: true }).click();
    // One click only offers the confirming button: the invite still works.
    await invite.getByRole('button', { name: 'Keep' }).waitFor();
    expect(await invite.getByText('revoked').count()).toBe(0);
    await invite.getByRole('button', { name: 'Revoke for good' }).click();
    await invite.getByText('revoked').waitFor();

    const member = admin.getByRole('table', { name: 'Members' }).locator('tr', { hasText: 'Jo Joiner' });
    // A role change takes effect at once and says so.
    await member.getByRole('combobox').selectOption('Admin');
    await admin.getByRole('status').filter({ hasText: 'Jo Joiner is now an Admin.' }).waitFor();
    await member.getByRole('combobox').selectOption('Member');
    await admin.getByRole('status').filter({ hasText: 'Jo Joiner is now a Member.' }).waitFor();
    await member.getByRole('button', { name: 'Remove', exact: true }).click();
    await member.getByRole('button', { name: 'Keep' }).click();
    await member.getByRole('button', { name: 'Remove', exact: true }).click();
    await member.getByRole('button', { name: 'Remove Jo Joiner' }).click();
    await member.waitFor({ state: 'detached' });
  });

  it('pages through more projects than one page holds, on the projects page and in every project chooser', async () => {
    const owner = await createUser(w.h, { name: 'Many Projects' });
    const org = await anOrganization(w.h, owner, 'Fifty-one projects');
    // Newest first: the first one made is the only one on the second page.
    const oldest = await aProject(w.h, org, 'Numbered 0');
    for (let i = 1; i < PROJECTS_PAGE_SIZE + 1; i++) await aProject(w.h, org, `Numbered ${i}`);
    const page = await w.newPage();
    await signIn(page, owner.email, owner.password, '/org/projects');
    // Counted once the page's own rows are in: until then the table shows the previous page's, marked busy.
    const rows = page.locator('table[aria-label="Projects"]:not([aria-busy])').locator('tbody tr');
    await page.getByText(`Page 1 of 2 (${PROJECTS_PAGE_SIZE + 1} in all)`).waitFor();
    expect(await rows.count()).toBe(PROJECTS_PAGE_SIZE);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText(`Page 2 of 2 (${PROJECTS_PAGE_SIZE + 1} in all)`).waitFor();
    // The pager moves at the click; the table stays busy (so holds no counted row) until the second page arrives.
    await rows.filter({ hasText: 'Numbered 0' }).waitFor();
    expect(await rows.count()).toBe(1);

    // The API key form: the 51st project is on the chooser's second page; the key's row names it, linking to it.
    await page.goto('/account/keys');
    const keyProject = page.getByLabel('Project (for the gateway)', { exact: true });
    await keyProject.locator('option', { hasText: 'Numbered 50' }).waitFor({ state: 'attached' });
    expect(await keyProject.locator('option', { hasText: 'Numbered 0' }).count()).toBe(0);
    await page
      .getByRole('navigation', { name: 'Project (for the gateway): pages' })
      .getByRole('button', { name: 'Next' })
      .click();
    await page.getByText(`Page 2 of 2 (${PROJECTS_PAGE_SIZE + 1} in all)`).waitFor();
    await keyProject.selectOption({ label: 'Numbered 0' });
    await page.getByLabel('Key name').fill('Oldest project key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('shown-once').waitFor();
    const keyRow = page.getByRole('table', { name: 'API keys' }).locator('tr', { hasText: 'Oldest project key' });
    expect(await keyRow.getByRole('link', { name: 'Numbered 0' }).getAttribute('href')).toBe(
      `/org/projects/${oldest.id}`,
    );

    // A key bound to a project of the owner's other organization is named as one, with no link into this one.
    const second = await anOrganization(w.h, owner, 'Second of many');
    const elsewhere = await aProject(w.h, second, 'Elsewhere');
    const bound = await w.h.http
      .post('/api/v1/api-keys')
      .set(bearer(owner.session))
      .send({ name: 'Other organization key', projectId: elsewhere.id });
    expect(bound.status).toBe(200);
    await page.reload();
    await page
      .getByRole('combobox', { name: 'Organization', exact: true })
      .selectOption({ label: 'Fifty-one projects (Admin)' });
    const otherRow = page.getByRole('table', { name: 'API keys' }).locator('tr', { hasText: 'Other organization key' });
    await otherRow.getByText('Elsewhere (another organization: Second of many)').waitFor();
    expect(await otherRow.getByRole('link').count()).toBe(0);
    await keyRow.getByRole('link', { name: 'Numbered 0' }).waitFor();
    await checkPage(page, 'api-keys-project');

    // The gateway page: chosen from the second page, and still named when opened by its address.
    await page.goto('/gateway');
    await page.getByRole('navigation', { name: 'Project: pages' }).getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'Numbered 0' });
    await page.waitForURL(`**/gateway/${oldest.id}`);
    await page.reload();
    await page.getByText(`Page 1 of 2 (${PROJECTS_PAGE_SIZE + 1} in all)`).waitFor();
    const chosen = page.getByLabel('Project', { exact: true }).locator('option:checked');
    await page
      .getByLabel('Project', { exact: true })
      .locator('option', { hasText: 'Numbered 0' })
      .waitFor({ state: 'attached' });
    expect(await chosen.textContent()).toBe('Numbered 0');
    await checkPage(page, 'gateway-many-projects');

    // Switching the organization leaves the project of the one before (its pages would still answer: the account is
    // a member of both) for the first project of the new one.
    await page
      .getByRole('combobox', { name: 'Organization', exact: true })
      .selectOption({ label: 'Second of many (Admin)' });
    await page.waitForURL((url) => url.pathname === '/gateway');
    await page
      .getByLabel('Project', { exact: true })
      .locator('option', { hasText: 'Elsewhere' })
      .waitFor({ state: 'attached' });
    expect(await chosen.textContent()).toBe('Elsewhere');
    await page.getByRole('heading', { name: 'Recent requests' }).waitFor();
    // So does a project's own page: to the new organization's list of projects.
    await page.goto(`/org/projects/${elsewhere.id}`);
    await page.getByRole('heading', { name: 'Elsewhere' }).waitFor();
    await page
      .getByRole('combobox', { name: 'Organization', exact: true })
      .selectOption({ label: 'Fifty-one projects (Admin)' });
    await page.waitForURL((url) => url.pathname === '/org/projects');
    await page.getByRole('heading', { name: 'Elsewhere' }).waitFor({ state: 'detached' });
  });

  it('creates a project from a template, showing its API key once, with its quota as usage bars', async () => {
    await admin.goto('/org/projects');
    await admin.getByLabel('Project name').fill('Console demo');
    const starter = await admin
      .getByLabel('Template')
      .locator('optgroup[label="Built-in"] option', { hasText: /^Starter/ })
      .getAttribute('value');
    await admin.getByLabel('Template').selectOption(starter ?? '');
    await admin.getByRole('button', { name: 'Create project' }).click();
    const shown = admin.getByTestId('shown-once');
    await shown.waitFor();
    projectKey = (await shown.textContent()) ?? '';
    expect(projectKey).toMatch(/^ock_/);
    await admin.getByRole('table', { name: 'Projects' }).getByRole('link', { name: 'Console demo' }).waitFor();
    await checkPage(admin, 'projects');

    await admin.getByRole('table', { name: 'Projects' }).getByRole('link', { name: 'Console demo' }).click();
    await admin.getByRole('heading', { name: 'Console demo' }).waitFor();
    await admin.getByRole('progressbar', { name: 'Requests today' }).waitFor();
    await admin.getByText(/resets on day \d+/).waitFor();
    await admin.getByLabel('Requests per minute').fill('120');
    await admin.getByLabel('Monthly reset day').fill('15');
    await admin.getByRole('button', { name: 'Save quota' }).click();
    await admin.getByText('Quota saved.').waitFor();
    await admin.getByText('Rate limit: 120 requests per minute.').waitFor();
    await admin.getByText(/resets on day 15\)/).waitFor();
    await checkPage(admin, 'project');
  });

  it('creates a template with its limits, offers it for new projects, and deletes it after confirming', async () => {
    await admin.goto('/org/templates');
    const list = admin.getByRole('table', { name: 'Project templates' });
    const starter = list.locator('tr', { hasText: 'Starter' });
    await starter.getByText('Built-in').waitFor();
    expect(await starter.getByRole('button').count()).toBe(0);

    await admin.getByLabel('Template name').fill('Night batch');
    await admin.getByLabel('Description').fill('Slow and cheap');
    await admin.getByLabel('Requests per day').fill('500');
    await admin.getByLabel('Requests per minute').fill('5');
    await admin.getByRole('button', { name: 'Create template' }).click();
    await admin.getByText('Template "Night batch" created.').waitFor();
    // The message comes with the creation's answer; the row, with the list's reload after it.
    const row = list.locator('tr', { hasText: 'Night batch' });
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual([
      'Night batchSlow and cheap',
      'This organization',
      'Private',
      '500 requests per day · 5 requests per minute',
      '0',
      'Delete',
    ]);
    await checkPage(admin, 'templates');

    await admin.goto('/org/projects');
    await admin
      .getByLabel('Template')
      .locator('option', { hasText: /^Night batch/ })
      .waitFor({ state: 'attached' });

    await admin.goto('/org/templates');
    await row.getByRole('button', { name: 'Delete', exact: true }).click();
    await row.getByRole('button', { name: 'Delete for good' }).click();
    await row.waitFor({ state: 'detached' });
    await admin.goto('/org/projects');
    await admin
      .getByLabel('Template')
      .locator('optgroup[label="Built-in"] option', { hasText: /^Starter/ })
      .waitFor({ state: 'attached' });
    expect(
      await admin
        .getByLabel('Template')
        .locator('option', { hasText: /^Night batch/ })
        .count(),
    ).toBe(0);
  });

  it('says whose each template is, so another organization’s public "Starter" is not taken for the built-in', async () => {
    // An organization the Admin does not belong to publishes a template with a built-in's name and category.
    const copycat = await anOrganization(w.h, undefined, 'Copycat Ltd');
    const published = await w.h.http
      .post('/api/project-templates')
      .set(inOrg(copycat.admin, copycat.id))
      .send({ name: 'Starter', category: 'Starter', isPublic: true, config: { quota: { dailyRequestLimit: 3 } } });
    expect(published.status).toBe(201);
    // The Admin's own other organization ("Side project", made above) publishes one too: that one can be named.
    const adminAuth = bearer((await signInAdmin(w.h)).token);
    const mine = (await w.h.http.get('/api/organizations').set(adminAuth)).body.data as { id: string; name: string }[];
    const side = mine.find((o) => o.name === 'Side project')?.id ?? '';
    const shared = await w.h.http
      .post('/api/project-templates')
      .set({ ...adminAuth, 'x-organization-id': side })
      .send({ name: 'Shared tier', isPublic: true, config: { rateLimit: { requestsPerMinuteLimit: 7 } } });
    expect(shared.status).toBe(201);
    const own = await w.h.http
      .post('/api/project-templates')
      .set({ ...adminAuth, 'x-organization-id': mine.find((o) => o.name === 'Default organization')?.id ?? '' })
      .send({ name: 'Night shift', config: { quota: { dailyRequestLimit: 50 } } });
    expect(own.status).toBe(201);

    await admin.goto('/org/projects');
    const select = admin.getByLabel('Template');
    const copy = select.locator(`option[value="${published.body.data.id}"]`);
    await copy.waitFor({ state: 'attached' });
    // One group per owner, built-in first; each "Starter" in its own.
    const groups = await select.locator('optgroup').all();
    expect(await Promise.all(groups.map((g) => g.getAttribute('label')))).toEqual([
      'Built-in',
      'This organization',
      'Public, from other organizations',
    ]);
    const group = (label: string) => select.locator(`optgroup[label="${label}"] option`);
    expect((await group('Built-in').allTextContents())[0]).toMatch(/^Starter — 1,000 requests per day/);
    expect(await group('Public, from other organizations').allTextContents()).toEqual([
      'Starter, from another organization — 3 requests per day',
      'Shared tier, from Side project — 7 requests per minute',
    ]);
    expect(await group('This organization').allTextContents()).toEqual(['Night shift — 50 requests per day']);

    // Under the select, as its description: whose the chosen one is and what it limits.
    const description = async () => {
      const id = await select.getAttribute('aria-describedby');
      return id ? admin.locator(`[id="${id}"]`).textContent() : null;
    };
    await select.selectOption(published.body.data.id);
    await admin.getByText('Public, from another organization: 3 requests per day').waitFor();
    expect(await description()).toBe('Public, from another organization: 3 requests per day');
    await select.selectOption({ label: 'Shared tier, from Side project — 7 requests per minute' });
    expect(await description()).toBe('Public, from Side project: 7 requests per minute');
    const builtIn = await group('Built-in').first().getAttribute('value');
    await select.selectOption(builtIn ?? '');
    expect(await description()).toMatch(/^Built-in: 1,000 requests per day/);
    await select.selectOption(published.body.data.id);
    await checkPage(admin, 'projects-template-owner');
    // A closed select shows no groups: shown as a list box for one photograph of them.
    await admin.evaluate(`document.querySelector('form[aria-label="Create a project"] select').size = 14`);
    await admin
      .getByRole('form', { name: 'Create a project' })
      .screenshot({ path: path.join(SCREENSHOT_DIR, 'projects-template-groups.png') });

    await admin.goto('/org/templates');
    const rows = admin.getByRole('table', { name: 'Project templates' }).locator('tbody tr');
    await rows.filter({ hasText: 'Shared tier' }).waitFor();
    const from = async (name: RegExp) =>
      rows
        .filter({ has: admin.locator('td:first-child', { hasText: name }) })
        .locator('td:nth-child(2)')
        .allTextContents();
    expect(await from(/^Starter/)).toEqual(['Built-in', 'Public, from another organization']);
    expect(await from(/^Shared tier/)).toEqual(['Public, from Side project']);
    expect(await from(/^Night shift/)).toEqual(['This organization']);
    await checkPage(admin, 'templates-owners');
  });

  it('recharges the wallet, then shows the Consume of a gateway call and the balance chart moving', async () => {
    expect(projectKey).toMatch(/^ock_/);
    await admin.goto('/org/wallet');
    await admin.getByLabel('Amount').fill('25');
    await admin.getByLabel('Description').fill('Card top-up');
    await admin.getByRole('button', { name: 'Recharge' }).click();
    await admin.getByText('Recharged: balance now 25.00 USD.').waitFor();
    await admin.getByTestId('balance').getByText('25.00 USD').waitFor();
    const table = admin.getByRole('table', { name: 'Wallet records' });
    await table.getByText('Card top-up').waitFor();
    await waitUntil(async () => (await chartValues(admin)).at(-1) === '25.00 USD', 30_000);

    const called = await fetch(`${w.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': projectKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'claude-haiku-4-5',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hello from the console test' }],
      }),
    });
    expect(called.status).toBe(200);
    // The call is settled once its answer is sent; look once its Consume record is written.
    const orgId = await admin.evaluate("localStorage.getItem('ockhub.organization')");
    await waitUntil(async () => {
      const res = await w.h.http
        .get('/api/organization/wallet/records?type=Consume')
        .set({ authorization: `Bearer ${(await signInAdmin(w.h)).token}`, 'x-organization-id': String(orgId) });
      return res.body.total > 0;
    }, 30_000);
    await admin.reload();
    await table.locator('tr', { hasText: 'Consume' }).first().waitFor();
    const last = await waitUntil(async () => {
      const value = (await chartValues(admin)).at(-1);
      return value && value !== '25.00 USD' ? value : undefined;
    }, 30_000);
    const balanceAfter = Number(last.replace(/[^0-9.]/g, ''));
    expect(balanceAfter).toBeLessThan(25);
    expect(balanceAfter).toBeGreaterThan(24);
    await checkPage(admin, 'wallet');

    await admin.getByLabel('Type').selectOption('Consume');
    await table.locator('tr', { hasText: 'Recharge' }).waitFor({ state: 'detached' });
    expect(await table.locator('tbody tr').count()).toBe(1);
    // Which project and key spent it: the project links to its Gateway page.
    const spentBy = table.locator('tbody tr').first().getByRole('link', { name: 'Console demo' });
    expect(await spentBy.getAttribute('href')).toMatch(/^\/gateway\/[0-9a-f-]{36}$/);
    await table.locator('tbody tr').first().getByText('· Console demo key').waitFor();
    const today = new Date().toISOString().slice(0, 10);
    await admin.getByLabel('From (UTC day)').fill(today);
    await admin.getByLabel('To (UTC day, included)').fill(today);
    expect(await table.locator('tbody tr').count()).toBe(1);
    const [download] = await Promise.all([
      admin.waitForEvent('download'),
      admin.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^wallet-records-\d{4}-\d{2}-\d{2}\.csv$/);
    const stream = await download.createReadStream();
    let csv = '';
    for await (const chunk of stream) csv += chunk;
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(
      /^id,createdAt,type,amount,previousBalance,currentBalance,description,requestLogId,refundOf,projectId,/,
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',Consume,');
  });

  it('saves alert settings with a webhook and its headers, and shows a test alert’s delivery', async () => {
    await admin.goto('/org/alerts');
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/ockhub-alerts`;
    await admin.getByLabel('Webhook URL').fill(url);
    await admin.getByLabel('Webhook headers').fill('X-Team: payments');
    await admin.getByLabel('Thresholds').fill('20, 5');
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('Settings saved.').waitFor();
    await admin.getByText(/^Signing secret:/).waitFor();
    await admin.getByLabel('Webhook headers').fill('Content-Type: text/plain');
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByRole('alert').filter({ hasText: '(Wallet.InvalidAlertSettings)' }).waitFor();
    await admin.getByLabel('Webhook headers').fill('X-Team: payments');
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText('Settings saved.').waitFor();

    await admin.getByRole('button', { name: 'Send a test alert' }).click();
    const row = admin.getByRole('table', { name: 'Alerts sent' }).locator('tbody tr').first();
    await row.getByText('webhook #1: ok (HTTP 200)').waitFor({ timeout: 30_000 });
    await row.getByText('sent', { exact: true }).waitFor();
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.headers['x-team']).toBe('payments');
    expect(deliveries[0]?.headers['webhook-signature']).toMatch(/^v1,/);

    // Replacing the secret: the page says the old one signs too for a day, and the next delivery carries both.
    const oldSecret =
      (await admin
        .getByText(/^Signing secret:/)
        .locator('code')
        .textContent()) ?? '';
    await admin.getByLabel('replace it when saving').check();
    await admin.getByRole('button', { name: 'Save settings' }).click();
    await admin.getByText(/The secret it replaced also signs deliveries until /).waitFor();
    const newSecret =
      (await admin
        .getByText(/^Signing secret:/)
        .locator('code')
        .textContent()) ?? '';
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    await admin.getByRole('button', { name: 'Send a test alert' }).click();
    await waitUntil(async () => deliveries.length >= 2);
    const signed = deliveries[1];
    for (const secret of [oldSecret, newSecret]) {
      expect(new Webhook(secret).verify(signed?.body ?? '', signed?.headers as Record<string, string>)).toMatchObject({
        test: true,
      });
    }
    await checkPage(admin, 'alerts');
  });
});
