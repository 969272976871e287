// A moderator's day, part 2: deciding on an item with its publisher in view. Before: a report row did not name the
// item's publisher, the reports read newest first only, the review page said nothing of the publisher's other items or
// past reports, its "Runs code" note told the reviewer to read the scripts "before you install it", and a moderator had
// no list of its own decisions.
import type { Page } from 'playwright-core';
import {
  type Actors,
  createDraft,
  createNamespace,
  publishItem,
  submit,
  uploadBundle,
} from '../support/catalog-factory.js';
import { bearer, createUser, TEST_PASSWORD, type TestUser } from '../support/identity.js';
import { buildZip } from '../support/zip-builders.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
let mod: Page;
let moderator: TestUser;
let cy: Actors;
let ada: Actors;
let skill: { id: string };
let calm: { id: string; slug: string };
const published: { name: string; id: string }[] = [];

const report = (user: TestUser, type: string, slug: string, detail: string) =>
  w.h.http
    .post(`/api/v1/${type}/${slug}/report`)
    .set(bearer(user.session))
    .send({ reason: 'Malicious or unsafe', detail })
    .expect(200);

beforeAll(async () => {
  w = await openConsoleWorld();
  moderator = await createUser(w.h, { roles: ['Moderator'], name: 'Mia Moderator' });
  const uma = await createUser(w.h, { name: 'Uma User' });
  const actorsOf = async (name: string): Promise<Actors> => {
    const publisher = await createUser(w.h, { roles: ['Publisher'], name });
    return { publisher, moderator, outsider: uma, namespace: await createNamespace(w.h, publisher) };
  };
  cy = await actorsOf('Cy Repeat');
  ada = await actorsOf('Ada Good');
  // Cy has two items on the hub; one was reported before (resolved), the other is reported now.
  const tools = await publishItem(w.h, cy, 'mcp', { name: 'Crypto Tools' });
  const agent = await publishItem(w.h, cy, 'agent', { name: 'Airdrop Agent' });
  published.push({ name: 'Crypto Tools', id: tools.id }, { name: 'Airdrop Agent', id: agent.id });
  const old = await report(uma, 'mcp', tools.slug, 'first: it asked for a seed phrase');
  await w.h.http
    .post(`/api/v1/moderation/reports/${old.body.id}/resolve`)
    .set(bearer(moderator.session))
    .send({ resolution: 'Fixed by the publisher.' })
    .expect(200);
  await report(uma, 'agent', agent.slug, 'second: it promises free tokens');
  calm = await publishItem(w.h, ada, 'soul', { name: 'Calm Soul', version: { soulMd: 'Be calm.' } });
  await report(uma, 'soul', calm.slug, 'third: a typo in the name');
  // Today Cy submits a skill whose bundle runs a script.
  skill = await createDraft(w.h, cy, 'skill', { name: 'Wallet Sweeper' });
  const zip = await buildZip({
    'wallet-sweeper/SKILL.md': '---\nname: wallet-sweeper\ndescription: Tidy wallets\n---\n# Sweeper\n',
    'wallet-sweeper/scripts/sweep.sh': 'echo sweep\n',
  });
  expect((await uploadBundle(w.h, cy, skill as never, zip)).status).toBe(200);
  expect((await submit(w.h, cy, 'skill', skill.id)).status).toBe(200);
  mod = await w.newPage();
  await signIn(mod, moderator.email, TEST_PASSWORD, '/moderation/reports');
});
afterAll(() => w?.close());

const details = (page: Page) =>
  page
    .getByRole('table', { name: 'Reports' })
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.textContent?.match(/(first|second|third):/)?.[1] ?? ''));

describe("a moderator's day, part 2", () => {
  it('reads each report with its publisher, and turns the list oldest first', async () => {
    const row = mod.getByRole('row').filter({ hasText: 'it promises free tokens' });
    await row.waitFor();
    await row.getByText(`Agent by Namespace ${cy.namespace} ${cy.namespace}`).waitFor();
    await mod
      .getByRole('row')
      .filter({ hasText: 'a typo in the name' })
      .getByText(`by Namespace ${ada.namespace}`)
      .waitFor();
    expect(await details(mod)).toEqual(['third', 'second']);

    await mod.getByLabel('Order').selectOption('oldest');
    await mod.waitForURL(/sort=oldest/);
    await mod.getByRole('table', { name: 'Reports' }).locator('tbody tr').first().getByText('second:').waitFor();
    expect(await details(mod)).toEqual(['second', 'third']);
    // The order stays when the status changes.
    await mod.getByLabel('Status').selectOption('resolved');
    await mod.getByRole('row').filter({ hasText: 'it asked for a seed phrase' }).waitFor();
    expect(new URL(mod.url()).searchParams.get('sort')).toBe('oldest');
    await mod.getByLabel('Status').selectOption('open');
    await mod.getByRole('row').filter({ hasText: 'a typo in the name' }).waitFor();
    await checkPage(mod, 'moderator-day-2-reports');
  });

  it("reviews a skill with its publisher's other items and past reports in view, and the note speaks to the reviewer", async () => {
    await mod.goto(`/moderation/skill/${skill.id}`);
    await mod.getByRole('heading', { name: 'Review: Wallet Sweeper' }).waitFor();
    const record = mod.getByRole('region', { name: "Publisher's record" });
    await record.getByRole('heading', { name: 'Other items by this publisher' }).waitFor();
    await record.getByText('2 other items on the hub.').waitFor();
    for (const item of published) {
      expect(await record.getByRole('link', { name: item.name }).getAttribute('href')).toMatch(
        new RegExp(`/moderation/(mcp|agent)/${item.id}$`),
      );
    }
    await record.getByRole('link', { name: '1 open report' }).waitFor();
    await record.getByRole('link', { name: '1 resolved report' }).waitFor();

    // The bundle is parsed by the worker; then the note names the script and says what to check.
    const note = mod.getByRole('region', { name: 'Under review: 1.0.0' }).getByRole('note');
    await note
      .filter({
        hasText: "once approved, agents that use this skill may run its scripts or programs on their users' computers",
      })
      .filter({ hasText: 'scripts/sweep.sh' })
      .filter({ hasText: 'sends files or data away' })
      .waitFor({ timeout: 30_000 });
    expect(await mod.getByText('Read them before you install it.').count()).toBe(0);
    await checkPage(mod, 'moderator-day-2-publisher-record');

    // The open count opens the reports on this publisher's items only.
    await record.getByRole('link', { name: '1 open report' }).click();
    await mod.waitForURL(/\/moderation\/reports\?status=open&publisher=/);
    await mod.getByRole('row').filter({ hasText: 'it promises free tokens' }).waitFor();
    await mod.getByText(`Only reports on the items of ${cy.namespace}`).waitFor();
    expect(await details(mod)).toEqual(['second']);
    await checkPage(mod, 'moderator-day-2-reports-of-publisher');
  });

  it('says so when the publisher has nothing else on the hub and no resolved report', async () => {
    await mod.goto(`/moderation/soul/${calm.id}`);
    const record = mod.getByRole('region', { name: "Publisher's record" });
    await record.getByText('No other items on the hub.').waitFor();
    await record.getByRole('link', { name: '1 open report' }).waitFor();
    await record.getByText('0 resolved reports').waitFor();
  });

  it('lists its own decisions, newest first, each opening the item', async () => {
    await mod.goto(`/moderation/skill/${skill.id}`);
    await mod.getByLabel('Comment or reasons').fill('sweep.sh sends the wallet away: remove it.');
    await mod.getByRole('button', { name: 'Request changes' }).click();
    await mod.getByText('Asked for changes to Wallet Sweeper 1.0.0').waitFor();
    await mod.getByRole('link', { name: 'My decisions' }).click();
    await mod.getByRole('heading', { name: 'My decisions' }).waitFor();
    const rows = mod.getByRole('table', { name: 'My decisions' }).locator('tbody tr');
    await rows.first().getByText('Asked for changes').waitFor();
    const names = await rows.locator('td:first-child a').allTextContents();
    // The setup's approvals were this moderator's too (publishItem approves as the actors' moderator).
    expect(names).toEqual(['Wallet Sweeper', 'Calm Soul', 'Airdrop Agent', 'Crypto Tools']);
    await rows.first().getByText('sweep.sh sends the wallet away: remove it.').waitFor();
    expect(await rows.nth(1).locator('td').nth(1).textContent()).toBe('Approved');
    await checkPage(mod, 'moderator-day-2-my-decisions');
    await rows.first().getByRole('link', { name: 'Wallet Sweeper' }).click();
    await mod.waitForURL(`**/moderation/skill/${skill.id}`);
  });
});
