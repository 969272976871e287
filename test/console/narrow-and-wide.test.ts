// Every page of the console at a phone's size (390x844) and a laptop's (1280x800), filled as people fill it: a
// 64-character slug, a long e-mail address, a long organization name, a webhook URL with a query string, balances in
// the hundreds of millions. At 390 px axe-core finds no serious or critical violation (as checkPage does at both
// widths elsewhere), the page itself never scrolls sideways, and a table's row actions (Refund,
// Resolve, Revoke, a member's role and Remove, Disable/Delete) are on the screen without scrolling anything, the
// table being a list of cards there; both sizes are photographed (`test-results/console/widths/<page>-<width>.png`)
// so a person can look at them.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { createDraft as apiDraft, publishItem, submit } from '../support/catalog-factory.js';
import { recharge } from '../support/gateway.js';
import { bearer, createUser, signInAdmin, TEST_PASSWORD, type TestUser } from '../support/identity.js';
import { aMember, anInviteToken, inOrg, type TestOrg } from '../support/org-fixtures.js';
import {
  type ConsoleWorld,
  laidOut,
  openConsoleWorld,
  PHONE,
  SCREENSHOT_DIR,
  seriousViolations,
  signIn,
} from './console-world.js';

const LAPTOP = { width: 1280, height: 800 };
const SHOTS = path.join(SCREENSHOT_DIR, 'widths');

/** Near 64 characters, the longest slug there is. */
const longSlug = (end: string) => `enterprise-knowledge-graph-connector-for-documentation-${end}`;
const LONG_NAMESPACE = 'northwind-research-and-development-laboratories-europe-west-one';
const LONG_NAME = 'Enterprise Knowledge Graph Connector for Internal Documentation Portals';
const longEmail = (label: string) =>
  `${label}.firstname.middlename.lastname.${Date.now().toString(36)}@engineering.subsidiary.example-corporation.co.uk`;

let w: ConsoleWorld;
let adminToken = '';
let org: TestOrg;
let publisher: TestUser;
let member: TestUser;
let projectId = '';
let draftId = '';
let inReviewId = '';
let publishedSlug = '';
let inviteToken = '';

/** The page's width at a phone's size, beside what it would need: more is a page that scrolls sideways. */
const widths = `({ scroll: document.documentElement.scrollWidth, view: window.innerWidth })`;

/** What a person must reach at a phone's width without scrolling sideways: a row's action controls. */
type Reach = (page: Page) => Locator[];

/** Nothing on the page, nor any table's box, is scrolled sideways: what is on the screen is what a person sees. */
const scrolledSideways = `window.scrollX !== 0 || [...document.querySelectorAll('.table-wrap')].some((w) => w.scrollLeft !== 0)`;

/** The DataTables (cards at a phone's width) whose box would scroll sideways: something in a card runs out of it. */
const tablesScrolling = `[...document.querySelectorAll('.table-wrap:has(> table.data-table)')]
  .filter((w) => w.scrollWidth > w.clientWidth)
  .map((w) => w.firstElementChild.getAttribute('aria-label') + ': ' + w.scrollWidth + ' px in a ' + w.clientWidth + ' px box')`;

/**
 * Each control lies wholly inside the phone's screen and inside its table's box (which would clip it), as the page is
 * laid out, without scrolling anything sideways; the list of those that do not, with where they are.
 */
async function outOfReach(page: Page, name: string, controls: Locator[]): Promise<string[]> {
  const problems: string[] = [];
  for (const control of controls) {
    await control.waitFor();
    if (await page.evaluate(scrolledSideways)) problems.push(`${name}: something is scrolled sideways`);
    const box = await control.boundingBox();
    const wrap = await control.locator('xpath=ancestor::div[contains(@class, "table-wrap")]').boundingBox();
    const right = Math.min(PHONE.width, wrap ? wrap.x + wrap.width : PHONE.width);
    if (!box || box.x < 0 || box.x + box.width > right + 0.5) {
      const where = box ? `${Math.round(box.x)}–${Math.round(box.x + box.width)} px` : 'not laid out';
      problems.push(`${name}: ${control} at ${where}, visible up to ${Math.round(right)} px`);
    }
  }
  return problems;
}

/**
 * Photographs the page as it is at a laptop's and a phone's size, and answers what is wrong at the phone's: a page
 * wider than the screen, a serious or critical axe-core violation, a row's action out of reach. `ready` is what must
 * be on the page before it is looked at.
 */
async function lookAt(page: Page, name: string, ready: (page: Page) => Promise<unknown>, reach?: Reach) {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize(LAPTOP);
  await ready(page);
  await page.waitForLoadState('networkidle');
  await laidOut(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${LAPTOP.width}.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await laidOut(page);
  await page.screenshot({ path: path.join(SHOTS, `${name}-${PHONE.width}.png`), fullPage: true });
  const { scroll, view } = (await page.evaluate(widths)) as { scroll: number; view: number };
  const problems = (await seriousViolations(page)).map((v) => `${name} at ${PHONE.width} px: ${v}`);
  if (reach) problems.push(...(await outOfReach(page, name, reach(page))));
  for (const scrolling of (await page.evaluate(tablesScrolling)) as string[]) problems.push(`${name}: ${scrolling}`);
  await page.setViewportSize(LAPTOP);
  return scroll > view ? [`${name}: ${scroll} px wide on a ${view} px screen`, ...problems] : problems;
}

type Visit = [name: string, path: string, ready: (page: Page) => Promise<unknown>, reach?: Reach];

/** Every visit's page, looked at; what is wrong at a phone's width (too wide, axe, an action out of reach). */
async function walk(page: Page, visits: Visit[]): Promise<string[]> {
  const problems: string[] = [];
  for (const [name, to, ready, reach] of visits) {
    await page.goto(to);
    problems.push(...(await lookAt(page, name, ready, reach)));
  }
  return problems;
}

/** A seeding call that must have worked; its answer says why when it did not. */
function ok<T extends { status: number; text: string }>(res: T): T {
  if (res.status >= 300) throw new Error(`seeding failed: ${res.status} ${res.text}`);
  return res;
}

const heading = (name: string | RegExp) => (p: Page) => p.getByRole('heading', { name, level: 1 }).waitFor();
const table = (name: string) => (p: Page) => p.getByRole('table', { name }).waitFor();
/** The first body row of a table (the header row is the table's first row). */
const firstRow = (p: Page, name: string) => p.getByRole('table', { name }).getByRole('row').nth(1);
/** The first row's controls of these names (buttons unless said otherwise). */
const inFirstRow =
  (name: string, ...controls: (string | [role: 'combobox' | 'textbox', name: string | RegExp])[]): Reach =>
  (p) =>
    controls.map((c) =>
      typeof c === 'string'
        ? firstRow(p, name).getByRole('button', { name: c, exact: true })
        : firstRow(p, name).getByRole(c[0], { name: c[1] }),
    );

beforeAll(async () => {
  w = await openConsoleWorld();
  const h = w.h;
  adminToken = (await signInAdmin(h)).token;
  const orgs = await h.http.get('/api/organizations').set(bearer(adminToken));
  org = { id: orgs.body.data[0].id, admin: { session: adminToken } as TestUser };
  const other = await h.http
    .post('/api/organizations')
    .set(bearer(adminToken))
    .send({ name: 'Northwind Research and Development Laboratories Europe West' });
  expect(other.status).toBe(201);

  // Members with long addresses, one an organization Admin; an invite waiting.
  member = await aMember(h, org);
  await aMember(h, org, 'Admin');
  for (const label of ['procurement', 'finance']) {
    const joiner = await createUser(h, {
      email: longEmail(label),
      name: 'Maximiliane Alexandra von Hohenzollern-Sigmaringen',
    });
    const invite = await anInviteToken(h, org, { role: 'Member' });
    await h.http.post(`/api/organization/invites/${invite.token}/accept`).set(bearer(joiner.session)).send({});
  }
  inviteToken = (await anInviteToken(h, org, { role: 'Admin' })).token;

  // A project with a long name and its key; a big balance; a gateway call's Consume.
  const templates = await h.http.get('/api/project-templates').set(bearer(adminToken));
  const starter = templates.body.data.find((t: { name: string }) => t.name === 'Starter');
  const project = await h.http
    .post('/api/projects/from-template')
    .set(inOrg(org.admin, org.id))
    .send({ name: 'Customer support summarisation pipeline (production, eu-west-1)', templateId: starter.id });
  expect(project.status).toBe(201);
  projectId = project.body.data.id;
  const projectKey: string = project.body.data.apiKeys[0].token;
  await recharge(h, org, '987654321.123456');
  const call = await fetch(`${w.baseUrl}/v1/messages`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${projectKey}`,
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] }),
  });
  expect(call.status).toBe(200);
  await h.http
    .put('/api/organization/wallet/alerts')
    .set(inOrg(org.admin, org.id))
    .send({
      webhookUrl: 'http://127.0.0.1:9/services/T0000000000/B0000000000/finance-alerts?channel=wallet-balance-eu-west',
      customHeaders: { Authorization: 'Bearer 3f9a8c7e6d5b4a3928171605f4e3d2c1b0a9f8e7d6c5b4a3' },
      thresholds: [1000000, 250000.5, 10],
    })
    .then(ok);
  await h.http
    .post('/api/v1/api-keys')
    .set(bearer(adminToken))
    .send({ name: 'Nightly batch export to the data warehouse (do not delete)', projectId });
  await h.http.post('/api/v1/api-keys/quota-requests').set(bearer(member.apiKey)).send({
    requestedQuota: 1000000,
    reason: 'Our nightly evaluation suite runs every catalog item against every model.',
  });
  await h.http
    .post('/api/v1/admin/top-up-codes')
    .set(bearer(adminToken))
    .send({
      amount: '250000',
      count: 2,
      expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      description: 'Conference voucher for the Northwind partner summit 2026',
    })
    .then(ok);

  // A publisher with a long namespace: one published item, one in review (and reported), one draft.
  publisher = await createUser(h, {
    roles: ['Publisher', 'Moderator'],
    email: longEmail('publisher'),
    name: 'Bartholomew Fitzgerald-Montgomery',
  });
  await h.http
    .post('/api/v1/publisher/publishers')
    .set(bearer(publisher.session))
    .send({ slug: LONG_NAMESPACE, name: 'Northwind Research and Development Laboratories' })
    .then(ok);
  const actors = { publisher, moderator: publisher, outsider: member, namespace: LONG_NAMESPACE };
  const long = { name: LONG_NAME, summary: 'Answers questions over Confluence, SharePoint and Google Drive.' };
  publishedSlug = (
    await publishItem(h, actors, 'mcp', {
      ...long,
      slug: longSlug('drive'),
      tags: ['knowledge-management', 'enterprise-search'],
    })
  ).slug;
  const inReview = await apiDraft(h, actors, 'mcp', { ...long, slug: longSlug('ii') });
  expect((await submit(h, actors, 'mcp', inReview.id, 'Adds read-only scopes only.')).status).toBe(200);
  inReviewId = inReview.id;
  draftId = (await apiDraft(h, actors, 'mcp', { ...long, slug: longSlug('iii') })).id;
  await h.http
    .post(`/api/v1/mcp/${publishedSlug}/report`)
    .set(bearer(member.apiKey))
    .send({
      reason: 'Broken link',
      detail: `The source URL https://github.com/${LONG_NAMESPACE}/${publishedSlug} answers 404.`,
    });
});
afterAll(() => w?.close());

describe('every page at a phone’s and a laptop’s size', () => {
  it('the hub, sign-in and join pages, to a visitor', async () => {
    const page = await w.newPage();
    const problems = await walk(page, [
      ['hub-mcp', '/hub/mcp', (p) => p.locator('.card').first().waitFor()],
      ['hub-skill', '/hub/skill', (p) => p.locator('.card').first().waitFor()],
      ['hub-search-empty', '/hub/agent?search=zzzznothing', heading(/./)],
      ['hub-item-long', `/hub/mcp/${publishedSlug}`, heading(LONG_NAME)],
      ['hub-item-github', '/hub/mcp/github', heading(/GitHub/)],
      ['hub-soul', '/hub/soul/stoic-mentor', heading(/./)],
      ['sign-in', '/sign-in', heading('Sign in')],
      ['join', `/join/${inviteToken}`, heading(/Join/)],
    ]);
    expect(problems).toEqual([]);
  });

  it('the account, publisher and moderation pages, to a publisher who moderates', async () => {
    const page = await w.newPage();
    await signIn(page, publisher.email, TEST_PASSWORD, '/account');
    const problems = await walk(page, [
      ['account', '/account', heading(/Account/)],
      ['api-keys', '/account/keys', heading(/API keys/)],
      ['quota', '/account/quota', heading(/quota/i)],
      // Not a DataTable, but a card list too: its last column (Updated) is on the screen.
      ['publisher', '/publisher', table('My items'), (p) => [firstRow(p, 'My items').getByRole('cell').last()]],
      ['publisher-new-mcp', '/publisher/new/mcp', heading(/./)],
      ['publisher-draft', `/publisher/mcp/${draftId}`, heading(LONG_NAME)],
      ['moderation-queue', '/moderation', heading(/./)],
      ['moderation-review', `/moderation/mcp/${inReviewId}`, heading(`Review: ${LONG_NAME}`)],
      [
        'moderation-reports',
        '/moderation/reports',
        table('Reports'),
        inFirstRow('Reports', ['textbox', /^Resolution of report/], 'Resolve'),
      ],
    ]);
    expect(problems).toEqual([]);
  });

  it('the organization, gateway and platform pages, to the platform Admin', async () => {
    const page = await w.newPage();
    await signIn(page, w.admin.email, w.admin.password, '/org');
    await page.getByRole('combobox', { name: 'Organization', exact: true }).waitFor();
    const problems = await walk(page, [
      ['organization', '/org', heading(/./)],
      [
        'members',
        '/org/members',
        table('Members'),
        (p) => [
          ...inFirstRow('Members', ['combobox', /^Role of /])(p),
          p.getByRole('table', { name: 'Members' }).getByRole('button', { name: 'Remove', exact: true }).first(),
          ...inFirstRow('Invite tokens', 'Revoke')(p),
        ],
      ],
      ['projects', '/org/projects', heading(/Projects/)],
      [
        'project',
        `/org/projects/${projectId}`,
        (p) =>
          p
            .getByText(/Customer support summarisation/)
            .first()
            .waitFor(),
      ],
      ['templates', '/org/templates', heading(/./)],
      [
        'wallet',
        '/org/wallet',
        table('Wallet records'),
        (p) => [p.getByRole('table', { name: 'Wallet records' }).getByRole('button', { name: 'Refund' }).first()],
      ],
      ['alerts', '/org/alerts', heading(/./)],
      ['gateway', `/gateway/${projectId}`, table('Recent requests')],
      ['api-keys-admin', '/account/keys', table('API keys'), inFirstRow('API keys', 'Disable', 'Delete')],
      ['platform-accounts', '/platform', heading(/./)],
      [
        'platform-quota-requests',
        '/platform/quota-requests',
        table('Quota requests'),
        inFirstRow('Quota requests', 'Approve', 'Reject'),
      ],
      ['platform-wallets', '/platform/wallets', heading(/./)],
      ['platform-top-up-codes', '/platform/top-up-codes', table('Top-up codes'), inFirstRow('Top-up codes', 'Revoke')],
      ['platform-audit-log', '/platform/audit-log', heading(/./)],
    ]);
    expect(problems).toEqual([]);
  });

  it('a table laid out as cards stays a table to a screen reader, its cells named by their values alone', async () => {
    const page = await w.newPage();
    await signIn(page, w.admin.email, w.admin.password, '/org/members');
    await page.setViewportSize(PHONE);
    await page.getByRole('table', { name: 'Members' }).waitFor();
    await laidOut(page);
    // Chromium's own accessibility tree (what a screen reader is given), not the DOM's roles
    const cdp = await page.context().newCDPSession(page);
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: { role?: { value: string }; name?: { value: string } }[];
    };
    const named = (role: string) => nodes.filter((n) => n.role?.value === role).map((n) => n.name?.value ?? '');
    expect(named('table')).toContain('Members');
    expect(named('columnheader')).toEqual(expect.arrayContaining(['Name', 'E-mail', 'Role', 'Joined', 'Actions']));
    expect(named('cell')).toContain(w.admin.email);
    expect(named('cell').filter((name) => name.startsWith('E-mail'))).toEqual([]);
  });

  it('the organization pages, to a Member', async () => {
    const page = await w.newPage();
    await signIn(page, member.email, TEST_PASSWORD, '/org');
    const problems = await walk(page, [
      ['member-organization', '/org', heading(/./)],
      ['member-wallet', '/org/wallet', heading(/./)],
      ['member-gateway', '/gateway', heading(/./)],
    ]);
    expect(problems).toEqual([]);
  });
});
