// What a new team's first day in the console found (2026-11-27): the Overview named only the lowest balance alert
// threshold (an alert at 9.99 USD came while it said "below 1.00 USD"), the join page said "1 uses left", "My
// organizations" headed the organization's creation "Since" (a Member joined later read it as their own date), and
// a moderator's decision returned to the queue without a word about what was decided or where the item now is.
import { createActors, createDraft, submit } from '../support/catalog-factory.js';
import { TEST_PASSWORD } from '../support/identity.js';
import { aMember, anInviteToken, anOrganization, inOrg } from '../support/org-fixtures.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

describe('an organization on its first day', () => {
  it("names every balance alert threshold on the Overview, highest first, and heads the organization's date Created", async () => {
    const org = await anOrganization(w.h, undefined, 'Day One');
    const saved = await w.h.http
      .put('/api/organization/wallet/alerts')
      .set(inOrg(org.admin, org.id))
      .send({ thresholds: [1, 10, 5] });
    expect(saved.status).toBe(200);

    const page = await w.newPage();
    await signIn(page, org.admin.email, TEST_PASSWORD, '/org');
    await page.getByRole('link', { name: 'e-mail, below 10.00, 5.00 or 1.00 USD' }).waitFor();
    const mine = page.getByRole('table', { name: 'My organizations' });
    await mine.getByRole('columnheader', { name: 'Created' }).waitFor();
    expect(await mine.getByRole('columnheader', { name: 'Since' }).count()).toBe(0);
    await checkPage(page, 'day-one-overview');
  });

  it('says "1 use left" on the join page of a single-use invite', async () => {
    const org = await anOrganization(w.h, undefined, 'Day One Invites');
    const invite = await anInviteToken(w.h, org, { role: 'Member' });
    const page = await w.newPage();
    await page.goto(`/join/${invite.token}`);
    await page.getByRole('heading', { level: 1, name: 'Join Day One Invites' }).waitFor();
    await page.getByText(/\(1 use left\)\.$/).waitFor();
    expect(await page.getByText('uses left').count()).toBe(0);
    // A member who joined sees the same organization's row; the date under Created is the organization's.
    const member = await aMember(w.h, org);
    const memberPage = await w.newPage();
    await signIn(memberPage, member.email, TEST_PASSWORD, '/org');
    await memberPage
      .getByRole('table', { name: 'My organizations' })
      .getByRole('columnheader', { name: 'Created' })
      .waitFor();
  });
});

describe('a moderator deciding', () => {
  it('comes back to the queue told what was approved, with a link to its public page', async () => {
    const actors = await createActors(w.h);
    const draft = await createDraft(w.h, actors, 'mcp', {
      name: 'Day one weather',
      version: { connections: [{ transport: 'streamable-http', url: 'https://mcp.example.com/weather' }] },
    });
    expect((await submit(w.h, actors, 'mcp', draft.id)).status).toBe(200);

    const page = await w.newPage();
    await signIn(page, actors.moderator.email, TEST_PASSWORD, `/moderation/mcp/${draft.id}`);
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.waitForURL(/\/moderation$/);
    const notice = page.getByRole('status').filter({ hasText: 'Approved Day one weather 1.0.0: it is published' });
    await notice.waitFor();
    await checkPage(page, 'day-one-decided');
    await notice.getByRole('link', { name: 'its page' }).click();
    await page.waitForURL(new RegExp(`/hub/mcp/${draft.slug}$`));
    await page.getByRole('heading', { level: 1, name: 'Day one weather' }).waitFor();
  });

  it('says what was asked of the publisher after requesting changes', async () => {
    const actors = await createActors(w.h);
    const draft = await createDraft(w.h, actors, 'mcp', {
      name: 'Day one tides',
      version: { connections: [{ transport: 'streamable-http', url: 'https://mcp.example.com/tides' }] },
    });
    expect((await submit(w.h, actors, 'mcp', draft.id)).status).toBe(200);
    const page = await w.newPage();
    await signIn(page, actors.moderator.email, TEST_PASSWORD, `/moderation/mcp/${draft.id}`);
    await page.getByLabel('Comment or reasons').fill('Please describe the tools.');
    await page.getByRole('button', { name: 'Request changes' }).click();
    await page.waitForURL(/\/moderation$/);
    await page
      .getByRole('status')
      .filter({ hasText: 'Asked for changes to Day one tides 1.0.0: it is back with its publisher' })
      .waitFor();
  });
});
