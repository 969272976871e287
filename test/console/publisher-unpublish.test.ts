// A publisher takes their own published item off the hub from its page in the console (a publisher's first-week
// walk, 2026-11-27: the API had POST …/unpublish, the console had no way to it, so a publisher who wanted an item
// gone had to find the route or ask a moderator).
import type { Page } from 'playwright-core';
import { type Actors, createActors, createDraft, publishItem } from '../support/catalog-factory.js';
import { TEST_PASSWORD } from '../support/identity.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
let a: Actors;
let pub: Page;

beforeAll(async () => {
  w = await openConsoleWorld();
  a = await createActors(w.h);
  pub = await w.newPage();
  await signIn(pub, a.publisher.email, TEST_PASSWORD, '/publisher');
});
afterAll(() => w?.close());

it('unpublishes a published item after confirming, with a reason the history keeps; the hub no longer has it', async () => {
  const item = await publishItem(w.h, a, 'mcp');
  await pub.goto(`/publisher/mcp/${item.id}`);
  const panel = pub.getByRole('region', { name: 'Unpublish' });
  await panel.getByText('Takes it off the hub').waitFor();
  await checkPage(pub, 'publisher-unpublish');
  await panel.getByLabel('Reason (optional)').fill('The hosted server is being retired.');
  await panel.getByRole('button', { name: 'Unpublish' }).click();
  await panel.getByRole('button', { name: 'Take it off the hub' }).click();
  // The page reads the item again: no public page link, no Unpublish panel, the reason in the history.
  await pub.getByText('The hosted server is being retired.').waitFor();
  await panel.waitFor({ state: 'detached' });
  expect(await pub.getByRole('link', { name: 'public page' }).count()).toBe(0);
  // Said as what happened, not "draft"; one Edit form (the metadata) beside "Add a version", not two.
  expect(await pub.locator('main p .badge').allInnerTexts()).toEqual(['unpublished']);
  expect(await pub.getByRole('form', { name: 'Edit the draft' }).count()).toBe(1);
  await pub.getByRole('form', { name: 'Add a version' }).waitFor();
  await pub.goto('/publisher');
  await pub
    .getByRole('row', { name: new RegExp(item.slug) })
    .getByText('unpublished')
    .waitFor();
  expect((await w.h.http.get(`/api/v1/mcp/${item.slug}`)).status).toBe(404);
  await checkPage(pub, 'publisher-unpublished');
});

it('offers no Unpublish on an item that was never published', async () => {
  const draft = await createDraft(w.h, a, 'mcp');
  await pub.goto(`/publisher/mcp/${draft.id}`);
  await pub.getByRole('region', { name: 'Delete' }).waitFor();
  expect(await pub.getByRole('region', { name: 'Unpublish' }).count()).toBe(0);
});
