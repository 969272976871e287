// What the moderator's day left (docs/console.md, "Moderation accountability"): the tabs say what waits, the history
// says who acted (to the publisher: "a moderator"), and an item's reports are resolved together, from the reports list
// or with the removal.
import type { Page } from 'playwright-core';
import { type Actors, createDraft, createNamespace, publishItem, submit } from '../support/catalog-factory.js';
import { bearer, createUser, TEST_PASSWORD, type TestUser } from '../support/identity.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, rowsShown, signIn } from './console-world.js';

let w: ConsoleWorld;
let mod: Page;
let moderator: TestUser;
let reporters: TestUser[];
let pat: Actors;
let spammy: { id: string; slug: string };
let gone: { id: string; slug: string };

const report = async (item: { slug: string }, reporter: TestUser) =>
  w.h.http
    .post(`/api/v1/mcp/${item.slug}/report`)
    .set(bearer(reporter.session))
    .send({ reason: 'Spam', detail: `${reporter.email} saw spam` })
    .expect(200);

beforeAll(async () => {
  w = await openConsoleWorld();
  moderator = await createUser(w.h, { roles: ['Moderator'], name: 'Mia Moderator' });
  reporters = [];
  for (const name of ['Uma User', 'Ugo User', 'Ula User']) reporters.push(await createUser(w.h, { name }));
  const publisher = await createUser(w.h, { roles: ['Publisher'], name: 'Pat Publisher' });
  pat = { publisher, moderator, outsider: reporters[0]!, namespace: await createNamespace(w.h, publisher) };
  spammy = await publishItem(w.h, pat, 'mcp', { name: 'Spammy Server' });
  gone = await publishItem(w.h, pat, 'mcp', { name: 'Gone Server' });
  for (const u of reporters) await report(spammy, u);
  for (const u of reporters.slice(0, 2)) await report(gone, u);
  const waiting = await createDraft(w.h, pat, 'agent', { name: 'Waiting Agent' });
  expect((await submit(w.h, pat, 'agent', waiting.id)).status).toBe(200);
  mod = await w.newPage();
  await signIn(mod, moderator.email, TEST_PASSWORD, '/moderation');
});
afterAll(async () => w?.close());

const total = async (path: string) => (await w.h.http.get(path).set(bearer(moderator.session))).body.total as number;

describe('moderation accountability in the console', () => {
  it('counts what waits in the tab labels', async () => {
    const inReview = await total('/api/v1/moderation/queue');
    const open = await total('/api/v1/moderation/reports?status=open');
    expect(open).toBe(5);
    const tabs = mod.getByRole('navigation', { name: 'Moderation' });
    await tabs.getByRole('link', { name: `Review queue (${inReview})` }).waitFor();
    await tabs.getByRole('link', { name: 'Reports (5 open)' }).waitFor();
  });

  it("resolves an item's other open reports with the same note, from the reports list", async () => {
    await mod.goto('/moderation/reports');
    const rows = mod.getByRole('table', { name: 'Reports' }).locator('tbody tr').filter({ hasText: 'Spammy Server' });
    await rows.first().waitFor();
    expect(await rows.count()).toBe(3);
    const first = rows.first();
    await first.getByRole('textbox').fill('Spam, removed.');
    await first.getByLabel("Also resolve this item's other open reports (2), with the same note").check();
    await checkPage(mod, 'moderation-accountability-resolve-all');
    await first.getByRole('button', { name: 'Resolve' }).click();
    await rowsShown(mod, 'Reports', 2);
    await mod.getByRole('link', { name: 'Reports (2 open)' }).waitFor();
    const resolved = await w.h.http.get('/api/v1/moderation/reports?status=resolved').set(bearer(moderator.session));
    expect(resolved.body.items.map((r: { resolution: string }) => r.resolution)).toEqual(
      Array(3).fill('Spam, removed.'),
    );
  });

  it('resolves the open reports with a removal when asked, and says so', async () => {
    await mod.goto(`/moderation/mcp/${gone.id}`);
    const panel = mod.getByRole('region', { name: 'Remove from the hub' });
    await panel.getByLabel('Reason for removal').fill('Spam.');
    await panel.getByLabel('Also resolve its open reports, with this reason as their resolution').check();
    await panel.getByRole('button', { name: 'Remove from the hub' }).click();
    await panel.getByRole('button', { name: 'Remove it now' }).click();
    await mod.getByText('2 open reports resolved with that reason.').waitFor();
    expect(await total('/api/v1/moderation/reports?status=open')).toBe(0);
  });

  it('names who acted: the moderator reads names, the publisher reads "a moderator"', async () => {
    await mod.goto(`/moderation/mcp/${gone.id}`);
    const history = mod.getByRole('list', { name: 'Review history' });
    await history.getByRole('listitem').filter({ hasText: 'submit' }).filter({ hasText: 'by Pat Publisher' }).waitFor();
    await history.getByRole('listitem').filter({ hasText: 'remove' }).filter({ hasText: 'by Mia Moderator' }).waitFor();
    await checkPage(mod, 'moderation-accountability-history');

    const pub = await w.newPage();
    await signIn(pub, pat.publisher.email, TEST_PASSWORD, `/publisher/mcp/${gone.id}`);
    const theirs = pub.getByRole('list', { name: 'Review history' });
    await theirs.getByRole('listitem').filter({ hasText: 'remove' }).filter({ hasText: 'by a moderator' }).waitFor();
    await theirs.getByRole('listitem').filter({ hasText: 'submit' }).filter({ hasText: 'by Pat Publisher' }).waitFor();
    expect(await pub.getByText('Mia Moderator').count()).toBe(0);
    await checkPage(pub, 'moderation-accountability-publisher-history');
  });
});
