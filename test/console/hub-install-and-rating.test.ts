// An item page's install snippets (an MCP server's client configuration from its published connections, a
// skill's folder, an agent's package), the install counted when a snippet is copied, and rating an item 1–5.
import type { Page } from 'playwright-core';
import { waitUntil } from '../support/harness.js';
import { createUser, TEST_PASSWORD } from '../support/identity.js';
import { type ConsoleWorld, checkPage, expectCleanConsole, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(() => w?.close());

const snippetIn = (page: Page, section: string) =>
  page.getByRole('region', { name: section }).getByTestId('install-snippet');

const publicItem = async (type: string, slug: string) =>
  (await (await fetch(`${w.baseUrl}/api/v1/${type}/${slug}`)).json()) as {
    stats: { installCount: number; ratingCount: number; ratingAverage?: number };
  };

describe('installing from an item page', () => {
  it("shows an MCP server's npx command and its hosted URL as mcpServers configuration, and counts a copy as an install", async () => {
    const page = await w.newPage();
    await page.goto('/hub/mcp/github');
    await page.getByRole('heading', { name: 'Install', level: 2 }).waitFor();

    const local = snippetIn(page, 'Run locally with npx');
    expect(JSON.parse((await local.textContent()) ?? '')).toEqual({
      mcpServers: {
        github: { command: 'npx', args: ['-y', '@example/github-mcp'], env: { GITHUB_TOKEN: '<GITHUB_TOKEN>' } },
      },
    });
    const hosted = snippetIn(page, 'Connect to the hosted server (streamable-http)');
    expect(JSON.parse((await hosted.textContent()) ?? '')).toEqual({
      mcpServers: { github: { url: 'https://mcp.example.com/github' } },
    });
    await page.getByText('Replace each <NAME> with your own value').waitFor();

    const before = (await publicItem('mcp', 'github')).stats.installCount;
    const sent = page.waitForRequest(
      (r) => r.url().endsWith('/api/v1/telemetry') && r.postDataJSON()?.eventType === 'install',
    );
    await page
      .getByRole('region', { name: 'Run locally with npx' })
      .getByRole('button', { name: 'Copy configuration' })
      .click();
    await page.getByRole('region', { name: 'Run locally with npx' }).getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(await local.textContent());
    expect((await sent).postDataJSON()).toEqual({ itemType: 'mcp', slug: 'github', eventType: 'install' });
    const after = await waitUntil(async () => {
      const now = (await publicItem('mcp', 'github')).stats.installCount;
      return now > before ? now : undefined;
    }, 30_000);
    expect(after).toBe(before + 1);
    await checkPage(page, 'hub-item-install');
  });

  it('shows an SSE server by its URL, and an older version by its own connections', async () => {
    const page = await w.newPage();
    await page.goto('/hub/mcp/web-search');
    const hosted = snippetIn(page, 'Connect to the hosted server (sse)');
    expect(JSON.parse((await hosted.textContent()) ?? '')).toEqual({
      mcpServers: { 'web-search': { url: 'https://mcp.example.com/search' } },
    });
    await page.goto('/hub/mcp/github?version=1.0.0');
    await page.getByRole('heading', { name: 'Version 1.0.0' }).waitFor();
    await snippetIn(page, 'Run locally with npx').waitFor();
    expect(await page.getByRole('region', { name: /hosted server/ }).count()).toBe(0);
    expectCleanConsole(page);
  });

  it("says where a skill's folder goes, and links an agent's package with its checksum", async () => {
    const page = await w.newPage();
    await page.goto('/hub/skill/release-notes');
    const install = page.getByRole('region', { name: 'Install' });
    await install.getByText('~/.claude/skills/release-notes/').waitFor();
    await install.getByText('The hub does not serve skill bundles for download').waitFor();
    await page.goto('/hub/agent/code-reviewer');
    const download = page.getByRole('region', { name: 'Install' }).getByRole('link', { name: 'Download the package' });
    expect(await download.getAttribute('href')).toBe('https://registry.example.com/code-reviewer-1.0.0.tgz');
    await page
      .getByRole('region', { name: 'Install' })
      .getByText(`sha256:${'3'.repeat(64)}`)
      .waitFor();
    await checkPage(page, 'hub-agent-install');
  });
});

describe('rating an item', () => {
  it('shows a visitor the average and a sign-in link, and a signed-in person the average their rating makes', async () => {
    const visitor = await w.newPage();
    await visitor.goto('/hub/mcp/postgres');
    const average = visitor.getByTestId('rating-average');
    await average.filter({ hasText: 'Average: not rated yet' }).waitFor();
    await visitor.getByRole('region', { name: 'Rating' }).getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await visitor.getByRole('button', { name: /out of 5$/ }).count()).toBe(0);

    const first = await createUser(w.h, { name: 'First Rater' });
    const page = await w.newPage();
    await signIn(page, first.email, TEST_PASSWORD, '/hub/mcp/postgres');
    await page.getByRole('group', { name: 'Your rating' }).getByRole('button', { name: '4 out of 5' }).click();
    await page.getByTestId('rating-average').filter({ hasText: 'Average: 4.00 out of 5 (1 rating)' }).waitFor();
    await page.getByText('You rated it 4 out of 5.').waitFor();
    expect(await page.getByRole('button', { name: '4 out of 5' }).getAttribute('aria-pressed')).toBe('true');
    // After a reload the page reads the account's own rating back (GET …/rating).
    await page.reload();
    await page.getByText('You rated it 4 out of 5.').waitFor();
    expect(await page.getByRole('button', { name: '4 out of 5' }).getAttribute('aria-pressed')).toBe('true');

    // Another account, by keyboard: Enter on one score, then Tab to the next and Space (a new score replaces the old).
    const second = await createUser(w.h, { name: 'Second Rater' });
    const other = await w.newPage();
    await signIn(other, second.email, TEST_PASSWORD, '/hub/mcp/postgres');
    await other.getByText('One rating per account.').waitFor();
    await other.getByRole('button', { name: '2 out of 5' }).focus();
    await other.keyboard.press('Enter');
    await other.getByTestId('rating-average').filter({ hasText: 'Average: 3.00 out of 5 (2 ratings)' }).waitFor();
    await other.keyboard.press('Tab');
    await other.keyboard.press('Tab');
    await other.keyboard.press('Tab');
    await other.keyboard.press('Space');
    await other.getByTestId('rating-average').filter({ hasText: 'Average: 4.50 out of 5 (2 ratings)' }).waitFor();
    await other.getByText('You rated it 5 out of 5.').waitFor();
    expect(await other.getByRole('definition').filter({ hasText: '4.50 (2)' }).count()).toBe(1);
    expect((await publicItem('mcp', 'postgres')).stats).toMatchObject({ ratingCount: 2, ratingAverage: 4.5 });
    await checkPage(other, 'hub-rating');
  });
});
