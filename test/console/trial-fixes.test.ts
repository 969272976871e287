// What a new user's trial of the console found (2026-11-27): key usage that counted only catalog calls for gateway
// keys, skill examples without their text, "1 files", a stale "Changes requested" banner, a project page showing
// another organization's tabs, a wallet chart before the organization existed, an empty Refund line on a phone, an MCP
// install note without placeholders, telemetry for an item that was not found.
import {
  createActors,
  createDraft,
  publishSkillWithoutBundle,
  submit,
  uniqueSlug,
  uploadBundle,
} from '../support/catalog-factory.js';
import { recharge } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer, createUser } from '../support/identity.js';
import { aMember, anOrganization, aProject } from '../support/org-fixtures.js';
import { buildZip } from '../support/zip-builders.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, PHONE, signIn } from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

type KeyJson = {
  name: string;
  usage: { today: number; total: number };
  gatewayUsage?: { today: number; total: number; spentToday: number; spentTotal: number };
};

/** Money as the console writes it (console/src/format.ts): at least two decimals, then the currency. */
const money = (amount: number) =>
  `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(amount)} USD`;

describe('API key usage', () => {
  it("shows a project key's gateway requests and an account key's catalog calls, each labelled so", async () => {
    const owner = await createUser(w.h, { name: 'Kim Keys' });
    const org = await anOrganization(w.h, owner, 'Key Counting');
    const project = await aProject(w.h, org, 'Counted');
    await recharge(w.h, org, '20');
    const made = await w.h.http
      .post('/api/v1/api-keys')
      .set(bearer(owner.session))
      .send({ name: 'Gateway key', projectId: project.id });
    expect(made.status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const res = await w.h.http
        .post('/v1/messages')
        .set({ ...bearer(made.body.token), 'anthropic-version': '2023-06-01' })
        .send({ model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: `Hello ${i}` }] });
      expect(res.status).toBe(200);
    }
    for (let i = 0; i < 2; i++) {
      expect((await w.h.http.get('/api/v1/api-keys/usage').set(bearer(owner.apiKey))).status).toBe(200);
    }
    // The ledger worker writes the request logs behind (well under a second).
    const keys = await waitUntil(async () => {
      const listed = (await w.h.http.get('/api/v1/api-keys').set(bearer(owner.session))).body as KeyJson[];
      return listed.find((k) => k.name === 'Gateway key')?.gatewayUsage?.total === 3 && listed;
    }, 30_000);
    const gatewayKey = keys.find((k) => k.name === 'Gateway key');
    expect(gatewayKey).toMatchObject({ usage: { today: 0, total: 0 }, gatewayUsage: { today: 3, total: 3 } });
    // What the three took from the wallet, shown under each count (a finance admin's trial found no money per key).
    const spent = gatewayKey?.gatewayUsage?.spentTotal ?? 0;
    expect(spent).toBeGreaterThan(0);
    expect(gatewayKey?.gatewayUsage?.spentToday).toBe(spent);
    const catalogKey = keys.find((k) => k.name === 'test key');
    expect(catalogKey?.usage).toEqual({ today: 2, total: 2 });
    expect(catalogKey).not.toHaveProperty('gatewayUsage');

    const page = await w.newPage();
    await signIn(page, owner.email, owner.password, '/account/keys');
    const table = page.getByRole('table', { name: 'API keys' });
    const gatewayRow = table.locator('tbody tr', { hasText: 'Gateway key' });
    await gatewayRow.waitFor();
    const cells = async (row: typeof gatewayRow) => (await row.locator('td').allTextContents()).slice(5, 7);
    expect(await cells(gatewayRow)).toEqual([`3 gateway${money(spent)}`, `3 gateway${money(spent)}`]);
    expect(await cells(table.locator('tbody tr', { hasText: 'test key' }))).toEqual(['2 catalog', '2 catalog']);
    await page.getByText("Today (UTC) and Total count a project key's gateway requests").waitFor();
    await checkPage(page, 'trial-keys-usage');

    await page.goto(`/org/projects/${project.id}`);
    const projectKeys = page.getByRole('table', { name: 'API keys of this project' });
    const projectRow = projectKeys.locator('tbody tr', { hasText: 'Gateway key' });
    await projectRow.waitFor();
    expect((await projectRow.locator('td').allTextContents()).slice(5, 7)).toEqual([
      `3 gateway${money(spent)}`,
      `3 gateway${money(spent)}`,
    ]);
    await checkPage(page, 'trial-project-keys-usage');
  });
});

describe('skill examples in the hub', () => {
  it("shows each example's text, the first lines of a long one until asked for all of it", async () => {
    const page = await w.newPage();
    // The demo skill's one example, parsed from its SKILL.md's "## Examples" section by the real parse.
    await page.goto('/hub/skill/release-notes');
    const examples = page.getByRole('region', { name: 'Examples' });
    await examples.getByText('Release notes since v2.3.0').waitFor();
    expect(await examples.locator('pre').textContent()).toContain('gives the four sections, each change on one line');

    const actors = await createActors(w.h);
    const slug = uniqueSlug('examples');
    const long = Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the changelog`).join('\n');
    await publishSkillWithoutBundle(
      w.h,
      actors,
      { slug, name: 'Changelog writer' },
      {
        examples: [
          { title: 'Short one', source: 'skill-md', content: 'Summarize the week.' },
          { title: 'big.md', source: 'examples-folder', path: 'big.md', content: long },
        ],
      },
    );
    await page.goto(`/hub/skill/${slug}`);
    const section = page.getByRole('region', { name: 'Examples' });
    await section.waitFor();
    expect(await section.locator('li', { hasText: 'Short one' }).locator('pre').textContent()).toBe(
      'Summarize the week.',
    );
    const big = section.locator('li', { hasText: 'big.md' });
    expect(await big.locator('pre').textContent()).toBe(long.split('\n').slice(0, 12).join('\n'));
    const more = big.getByRole('button', { name: 'Show all 30 lines' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await checkPage(page, 'trial-skill-examples');
    await more.click();
    await big.getByRole('button', { name: 'Show less' }).waitFor();
    expect(await big.locator('pre').textContent()).toBe(long);
    await checkPage(page, 'trial-skill-examples-open');
  });
});

describe('a skill sent back, then given a new bundle', () => {
  it('says "1 file", and that a bundle came after the request so the version can be submitted again', async () => {
    const actors = await createActors(w.h);
    const slug = uniqueSlug('resent');
    const draft = await createDraft(w.h, actors, 'skill', { slug, name: 'Resent skill' });
    const bad = await buildZip({ 'SKILL.md': '---\ndescription: no name here\n---\n# x\n' });
    expect((await uploadBundle(w.h, actors, draft, bad)).status).toBe(200);
    expect((await submit(w.h, actors, 'skill', draft.id)).status).toBe(200);
    // The parse sends it back with its reasons as the reviewer's comment.
    await waitUntil(async () => {
      const res = await w.h.http.get(`/api/v1/publisher/skill/${draft.id}`).set(bearer(actors.publisher.session));
      return res.body.status === 'changes_requested';
    }, 30_000);

    const page = await w.newPage();
    await signIn(page, actors.publisher.email, actors.publisher.password, `/publisher/skill/${draft.id}`);
    const reasons = page.getByRole('alert', { name: "Reviewer's reasons" });
    await reasons.getByText('Changes requested:').waitFor();
    await reasons.getByText('The front matter must set `name`.').waitFor();

    const good = await buildZip({ 'SKILL.md': `---\nname: ${slug}\ndescription: Says hello.\n---\n# Hello\n` });
    await page
      .getByLabel(/Skill bundle/)
      .setInputFiles({ name: 'good.zip', mimeType: 'application/zip', buffer: good });
    await page.getByRole('button', { name: 'Upload bundle' }).click();
    await page.getByText(/^Uploaded: \d+ B, 1 file, SHA-256/).waitFor();
    const after = page.getByRole('note', { name: "Reviewer's reasons" });
    await after
      .getByText(/^Changes requested on .* UTC; a new bundle was uploaded since, on .* UTC\. Submit version 1\.0\.0/)
      .waitFor();
    await after.getByText('The front matter must set `name`.').waitFor();
    expect(await page.getByRole('alert', { name: "Reviewer's reasons" }).count()).toBe(0);
    await checkPage(page, 'trial-skill-reuploaded');
    // It is the API's record, not the page's memory.
    await page.reload();
    await after.getByText(/a new bundle was uploaded since/).waitFor();

    await page.getByRole('button', { name: /^Submit version/ }).click();
    await page.getByText(/^Bundle parsed: 1 file \(/).waitFor({ timeout: 30_000 });
    await checkPage(page, 'trial-skill-resubmitted');
  });
});

describe("a project of another of the account's organizations, opened by its address", () => {
  it("makes the project's organization the current one, says so, and its tabs show that organization", async () => {
    const person = await createUser(w.h, { name: 'Two Hats' });
    const first = await anOrganization(w.h, person, 'First hat');
    const second = await anOrganization(w.h, person, 'Second hat');
    const onlyInSecond = await aMember(w.h, second);
    const project = await aProject(w.h, second, 'Second hat project');

    const page = await w.newPage();
    await signIn(page, person.email, person.password, '/org');
    const switcher = page.getByRole('combobox', { name: 'Organization', exact: true });
    await switcher.selectOption({ label: 'First hat (Admin)' });
    await page.getByRole('heading', { name: 'First hat', level: 1 }).waitFor();

    await page.goto(`/org/projects/${project.id}`);
    await page.getByRole('heading', { name: 'Second hat project', level: 1 }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'Switched to Second hat, the organization of this project (it was First hat).' })
      .waitFor();
    expect(await switcher.locator('option:checked').textContent()).toBe('Second hat (Admin)');
    expect(new URL(page.url()).pathname).toBe(`/org/projects/${project.id}`);
    await page.getByText('A project of Second hat').waitFor();
    await checkPage(page, 'trial-project-other-organization');

    // The tabs act in the project's organization: its members, not the first one's.
    await page.getByRole('link', { name: 'Members and invites' }).click();
    await page.waitForURL((url) => url.pathname === '/org/members');
    await page.getByRole('table', { name: 'Members' }).getByText(onlyInSecond.email).waitFor();
    expect(first.id).not.toBe(second.id);
    // A switch the person makes afterwards still leaves the project (it is not undone).
    await page.goto(`/org/projects/${project.id}`);
    await page.getByRole('heading', { name: 'Second hat project', level: 1 }).waitFor();
    await switcher.selectOption({ label: 'First hat (Admin)' });
    await page.waitForURL((url) => url.pathname === '/org/projects');
    expect(await switcher.locator('option:checked').textContent()).toBe('First hat (Admin)');
  });
});

describe("a new organization's wallet", () => {
  it('draws the balance from the day the organization was made, and a record with no refund has no Refund line', async () => {
    // The platform Admin (who sees the Refund column) in an organization made just now.
    const adminSession = (await w.h.http.post('/api/v1/auth/login').send(w.admin)).body.accessToken as string;
    const made = await w.h.http.post('/api/organizations').set(bearer(adminSession)).send({ name: 'Made today' });
    expect(made.status).toBe(201);
    const org = made.body.data as { id: string; createdAt: string };
    await recharge(w.h, { id: org.id, admin: { session: adminSession } as never }, '12');

    for (const device of [undefined, { viewport: PHONE, hasTouch: true }]) {
      const page = await w.newPage(device);
      await signIn(page, w.admin.email, w.admin.password, '/org');
      await page.getByRole('button', { name: 'Switch to Made today' }).click();
      await page.getByRole('heading', { name: 'Made today', level: 1 }).waitFor();
      // The organization's tabs (the Overview's wallet panel links to the same page).
      await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Wallet' }).click();
      const times = page.getByTestId('chart-data').locator('tbody th');
      await times.first().waitFor({ state: 'attached' });
      // "Last 30 days": the period's start has no value, the line starts when the organization was made (the
      // chart's times are to the minute); before, it was drawn at 0 from 30 days ago.
      const shown = (await times.allTextContents()).map((t) => Date.parse(`${t.replace(' ', 'T')}:00Z`));
      const values = await page.getByTestId('chart-data').locator('tbody td').allTextContents();
      expect(shown[0]).toBeLessThan(Date.parse(org.createdAt) - 29 * 86_400_000);
      expect(values[0]).toBe('');
      expect(shown[1]).toBe(Math.floor(Date.parse(org.createdAt) / 60_000) * 60_000);
      expect(values.slice(1).every((v) => v.endsWith(' USD'))).toBe(true);
      expect(values.at(-1)).toBe('12.00 USD');

      const record = page.getByRole('table', { name: 'Wallet records' }).locator('tbody tr').first();
      await record.getByText('+12.00 USD').waitFor();
      // The platform Admin's Refund column holds nothing for a Recharge: on a phone no "Refund" line is shown.
      const refundCell = record.locator('td[data-label="Refund"]');
      expect(await refundCell.count()).toBe(1);
      expect(await refundCell.isVisible()).toBe(device === undefined);
      await checkPage(page, device ? 'trial-new-wallet-phone' : 'trial-new-wallet');
    }
  });
});

describe('an item that is not there', () => {
  it('sends no telemetry for it, while a found item still counts its view', async () => {
    const page = await w.newPage();
    const telemetry: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/v1/telemetry')) telemetry.push(r.postData() ?? '');
    });
    await page.goto('/hub/mcp/no-such-server');
    await page.getByRole('heading', { name: 'Item not found', level: 1 }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'Mcp.NotFound' }).waitFor();
    expect(telemetry).toEqual([]);
    await checkPage(page, 'trial-item-not-found');

    const view = page.waitForRequest((r) => r.url().endsWith('/api/v1/telemetry'));
    await page.getByRole('link', { name: /^Back to/ }).click();
    await page.getByRole('link', { name: 'GitHub', exact: true }).click();
    expect((await view).postDataJSON()).toEqual({ itemType: 'mcp', slug: 'github', eventType: 'view' });
  });
});
