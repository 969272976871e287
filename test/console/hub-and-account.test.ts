// The public hub (browse, search, filters, sorts and paging kept in the URL; an item with its versions and counts;
// a soul's prompt; reporting) and the account pages (sign-in, profile, password, API keys shown once, daily quota).
import { createUser, TEST_PASSWORD } from '../support/identity.js';
import { type ConsoleWorld, checkPage, expectCleanConsole, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(() => w?.close());

describe('the public hub', () => {
  it('browses a type, searches and sorts with the state in the URL, and keeps it over a reload', async () => {
    const page = await w.newPage();
    await page.goto('/');
    await page.waitForURL('**/hub/mcp');
    await page.getByRole('heading', { name: 'MCP servers', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'GitHub' }).waitFor();
    await checkPage(page, 'hub');

    await page.getByRole('searchbox', { name: 'Search' }).fill('postgres');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/search=postgres/);
    await page
      .getByRole('status')
      .filter({ hasText: /^1 item$/ })
      .waitFor();
    expect(await page.locator('.card h2').allTextContents()).toEqual(['PostgreSQL']);

    await page.getByLabel('Sort').selectOption('popular');
    await page.waitForURL(/sort=popular/);
    await page.reload();
    await page.getByRole('link', { name: 'PostgreSQL' }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('postgres');
    expect(await page.getByLabel('Sort').inputValue()).toBe('popular');

    await page.goto('/hub/mcp?sort=popular&source=official');
    await page
      .getByRole('status')
      .filter({ hasText: /^2 items$/ })
      .waitFor();
    const names = await page.locator('.card h2').allTextContents();
    expect(names).toEqual(['GitHub', 'Web Search']);
    await page.getByRole('link', { name: 'Skills' }).click();
    await page.waitForURL('**/hub/skill');
    await page.getByRole('link', { name: 'PDF tables' }).waitFor();
    expectCleanConsole(page);
  });

  it('says so when nothing matches, with a way back to the whole list', async () => {
    const page = await w.newPage();
    await page.goto('/hub/skill?search=no-such-thing-anywhere&source=official');
    await page.getByText('Nothing matches these filters.').waitFor();
    await page.getByRole('link', { name: 'Show all Skills' }).click();
    await page.waitForURL((url) => url.pathname === '/hub/skill' && url.search === '');
    await page.getByRole('link', { name: 'PDF tables' }).waitFor();
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('');
    expectCleanConsole(page);
  });

  it('pages through a list with the page in the URL, and comes back to the same page after a reload', async () => {
    const page = await w.newPage();
    await page.goto('/hub/mcp?sort=popular&pageSize=1');
    await page.getByText('Page 1 of 3 (3 in all)').waitFor();
    const first = await page.locator('.card h2').allTextContents();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/page=2/);
    await page.getByText('Page 2 of 3 (3 in all)').waitFor();
    const second = await page.locator('.card h2').allTextContents();
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
    await page.reload();
    await page.getByText('Page 2 of 3 (3 in all)').waitFor();
    expect(await page.locator('.card h2').allTextContents()).toEqual(second);
    await page.goBack();
    await page.getByText('Page 1 of 3 (3 in all)').waitFor();
  });

  it('shows an item with its counts, type-specific fields and versions, and an older version on request', async () => {
    const page = await w.newPage();
    await page.goto('/hub/mcp/github');
    await page.getByRole('heading', { name: 'GitHub', level: 1 }).waitFor();
    const counts = page.getByRole('definition');
    expect((await counts.allTextContents()).length).toBeGreaterThanOrEqual(5);
    await page.getByRole('heading', { name: /^Tools \(\d+\)$/ }).waitFor();
    await page.getByRole('heading', { name: 'Settings (1)' }).waitFor();
    await page.locator('code', { hasText: /^GITHUB_TOKEN$/ }).waitFor();
    const versions = page.getByRole('list', { name: 'Published versions' }).getByRole('button');
    expect(await versions.count()).toBe(2);
    const older = (await versions.allTextContents()).sort()[0] as string;
    await versions.filter({ hasText: older }).click();
    await page.waitForURL(new RegExp(`version=${older.replace(/\./g, '\\.')}`));
    await page.getByRole('heading', { name: `Version ${older}` }).waitFor();
    await checkPage(page, 'hub-item');
  });

  it("shows a soul's prompt", async () => {
    const page = await w.newPage();
    await page.goto('/hub/soul/stoic-mentor');
    const prompt = page.getByTestId('soul-prompt');
    await prompt.waitFor();
    expect(await prompt.textContent()).toMatch(/^# Stoic Mentor\n\nCalm, brief advice/);
    await checkPage(page, 'hub-soul');
  });

  it('lets a signed-in person report an item, and asks a visitor to sign in first', async () => {
    const page = await w.newPage();
    await page.goto('/hub/agent/code-reviewer');
    await page.getByRole('link', { name: 'Sign in' }).last().waitFor();
    const user = await createUser(w.h, { name: 'Reporter' });
    await signIn(page, user.email, TEST_PASSWORD, '/hub/agent/code-reviewer');
    await page.getByLabel('Reason').selectOption('Spam');
    await page.getByLabel('Details (optional)').fill('Looks like an advertisement.');
    await page.getByRole('button', { name: 'Send report' }).click();
    await page.getByText(/report [0-9a-f]{8} is open/).waitFor();
    await checkPage(page, 'hub-report');
  });
});

describe('the account pages', () => {
  it('signs in, shows the API error of a wrong password, and signs out', async () => {
    const page = await w.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail').fill(w.admin.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'E-mail or password is wrong. (Auth.InvalidCredentials)' })
      .waitFor();
    await checkPage(page, 'sign-in');
    await page.getByLabel('Password').fill(w.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/account');
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'ockhub_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate('document.cookie')).not.toContain('ocs_');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).waitFor();
    await page.goto('/account');
    await page.waitForURL(/\/sign-in\?next=%2Faccount/);
  });

  it('changes the name and the password, showing the API error for a wrong current password', async () => {
    const user = await createUser(w.h, { name: 'Before Rename' });
    const page = await w.newPage();
    await signIn(page, user.email, TEST_PASSWORD);
    await page.getByLabel('Name', { exact: true }).fill('After Rename');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    await page.locator('.account-menu').getByText('After Rename').waitFor();

    await page.getByLabel('Current password').fill('wrong-current-password');
    await page.getByLabel('New password', { exact: true }).fill('a-new-password-123');
    await page.getByLabel('New password again').fill('a-new-password-123');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The current password is wrong. (Auth.InvalidCurrentPassword)' })
      .waitFor();
    await page.getByLabel('Current password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    await checkPage(page, 'account');
  });

  it('creates an API key whose token is shown once with a copy button, then disables, enables and deletes it', async () => {
    const user = await createUser(w.h);
    const page = await w.newPage();
    await signIn(page, user.email, TEST_PASSWORD, '/account/keys');
    await page.getByLabel('Key name').fill('laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('shown-once');
    await shown.waitFor();
    const token = (await shown.textContent()) ?? '';
    expect(token).toMatch(/^ock_[A-Za-z0-9]{32,}/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
    await checkPage(page, 'api-keys');

    // The token works, and it is never shown again.
    const me = await fetch(`${w.baseUrl}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: 'laptop' });
    await row.waitFor();
    expect(await page.content()).not.toContain(token);
    await row.getByText(token.slice(0, 12)).waitFor();

    // Exact text: "Disable" and "Delete" side by side read "disabledelete".
    await row.getByRole('button', { name: 'Disable' }).click();
    await row.getByText('disabled', { exact: true }).waitFor();
    const refused = await fetch(`${w.baseUrl}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByText('enabled', { exact: true }).waitFor();
    const accepted = await fetch(`${w.baseUrl}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(accepted.status).toBe(200);
    await row.getByRole('button', { name: 'Delete' }).click();
    await row.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByRole('row').filter({ hasText: 'laptop' }).waitFor({ state: 'detached' });
  });

  it("draws the last 30 days' usage against the daily quota and sends a quota request", async () => {
    const user = await createUser(w.h);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${w.baseUrl}/api/v1/api-keys`, { headers: { authorization: `Bearer ${user.apiKey}` } });
      expect(res.status).toBe(200);
    }
    const page = await w.newPage();
    await signIn(page, user.email, TEST_PASSWORD, '/account/quota');
    await page.getByText(/Today: 3 of 1,000 requests/).waitFor();
    // What the quota covers, so it is not read as the gateway's limit.
    await page.getByText(/Gateway calls \(\/v1\) are not counted here/).waitFor();
    const rows = page.getByTestId('chart-data').locator('tbody tr');
    await rows.first().waitFor({ state: 'attached' });
    expect(await rows.count()).toBe(30);
    expect(await rows.last().locator('td').first().textContent()).toBe('3');
    await page.getByLabel('Requests per day').fill('2500');
    await page.getByLabel('Reason (optional)').fill('Nightly sync');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page
      .getByRole('list', { name: 'My quota requests' })
      .getByText(/pending.*2,500 per day/)
      .waitFor();
    await page.getByLabel('Requests per day').fill('0');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByRole('alert').filter({ hasText: '(QuotaRequest.Invalid)' }).waitFor();
    await checkPage(page, 'quota');
  });
});
