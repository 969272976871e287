// Console polish: one role field for both invite forms, pagers that never strand the reader on an emptied page, a
// compact header on a phone, a filter over the project's member chooser, and the keyboard's focus through a
// two-step confirmation.
import type { Page } from 'playwright-core';
import { anOrganization } from '../support/org-fixtures.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

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
      description: 'A Member uses the projects; an Admin also manages members, invites, projects and the wallet.',
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
