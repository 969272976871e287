// biome-ignore-all lint/suspicious/noTemplateCurlyInString: VS Code writes its inputs literally as ${input:NAME}.
// An item page's install snippets (an MCP server's client configuration from its published connections, a
// skill's bundle and folder, an agent's package), the install counted when a snippet is copied or a bundle
// downloaded, and rating an item 1–5.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import {
  createActors,
  createDraft,
  decide,
  publishSkillWithoutBundle,
  submit,
  uploadBundle,
} from '../support/catalog-factory.js';
import { waitUntil } from '../support/harness.js';
import { bearer, createUser, TEST_PASSWORD } from '../support/identity.js';
import { buildZip, skillMd } from '../support/zip-builders.js';
import {
  type ConsoleWorld,
  checkPage,
  expectCleanConsole,
  focused,
  openConsoleWorld,
  signIn,
} from './console-world.js';

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
    currentVersion: { bundle?: { url: string; sha256: string; sizeBytes: number } };
  };

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A skill published the way a publisher does it: draft, bundle upload, submit, the worker's parse, approval. */
async function publishSkillWithBundle(zip: Buffer) {
  const actors = await createActors(w.h);
  const draft = await createDraft(w.h, actors, 'skill');
  expect((await uploadBundle(w.h, actors, draft, zip)).status).toBe(200);
  expect((await submit(w.h, actors, 'skill', draft.id)).status).toBe(200);
  await waitUntil(async () => {
    const own = await w.h.http.get(`/api/v1/publisher/skill/${draft.id}`).set(bearer(actors.publisher.session));
    return own.body.versions?.[0]?.bundleFiles;
  }, 30_000);
  expect((await decide(w.h, actors, 'skill', draft.id, 'approve')).status).toBe(200);
  return draft.slug;
}

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
    // Said above the one block with a placeholder, not above the hosted server's URL, which has none.
    await page
      .getByRole('region', { name: 'Run locally with npx' })
      .getByText('Replace <GITHUB_TOKEN> with your own value (see Settings).')
      .waitFor();
    expect(
      await page
        .getByRole('region', { name: 'Connect to the hosted server (streamable-http)' })
        .getByText(/Replace/)
        .count(),
    ).toBe(0);

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

  it("offers VS Code's mcp.json and Claude Code's command in tabs a keyboard reaches, each with its own copy", async () => {
    const page = await w.newPage();
    await page.goto('/hub/mcp/github');
    const tabs = page.getByRole('tablist', { name: 'MCP client' });
    const desktop = tabs.getByRole('tab', { name: 'Claude Desktop, Cursor' });
    expect(await desktop.getAttribute('aria-selected')).toBe('true');
    await page.getByRole('tabpanel', { name: 'Claude Desktop, Cursor' }).waitFor();

    await desktop.focus();
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('VS Code');
    await page.getByRole('tabpanel', { name: 'VS Code' }).getByText('.vscode/mcp.json').waitFor();
    expect(await tabs.getByRole('tab', { name: 'VS Code' }).getAttribute('aria-selected')).toBe('true');
    expect(JSON.parse((await snippetIn(page, 'Run locally with npx').textContent()) ?? '')).toEqual({
      inputs: [{ type: 'promptString', id: 'GITHUB_TOKEN', description: 'GITHUB_TOKEN', password: true }],
      servers: {
        github: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', '@example/github-mcp'],
          env: { GITHUB_TOKEN: '${input:GITHUB_TOKEN}' },
        },
      },
    });
    expect(
      JSON.parse((await snippetIn(page, 'Connect to the hosted server (streamable-http)').textContent()) ?? ''),
    ).toEqual({ servers: { github: { type: 'http', url: 'https://mcp.example.com/github' } } });
    await page
      .getByRole('region', { name: 'Run locally with npx' })
      .getByText('VS Code asks for GITHUB_TOKEN when it starts the server')
      .waitFor();
    expect(await page.getByText(/Replace/).count()).toBe(0);

    await page.keyboard.press('End');
    expect(await focused(page)).toBe('Claude Code');
    const local = snippetIn(page, 'Run locally with npx');
    await local.filter({ hasText: 'claude mcp add' }).waitFor();
    expect(await local.textContent()).toBe(
      "claude mcp add github \\\n  -e GITHUB_TOKEN='<GITHUB_TOKEN>' \\\n  -- npx -y @example/github-mcp",
    );
    expect(await snippetIn(page, 'Connect to the hosted server (streamable-http)').textContent()).toBe(
      'claude mcp add --transport http github https://mcp.example.com/github',
    );
    await page
      .getByRole('region', { name: 'Run locally with npx' })
      .getByText('Replace <GITHUB_TOKEN> with your own value')
      .waitFor();

    const sent = page.waitForRequest(
      (r) => r.url().endsWith('/api/v1/telemetry') && r.postDataJSON()?.eventType === 'install',
    );
    const region = page.getByRole('region', { name: 'Run locally with npx' });
    await region.getByRole('button', { name: 'Copy command' }).click();
    await region.getByText('Copied.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(await local.textContent());
    expect((await sent).postDataJSON()).toEqual({ itemType: 'mcp', slug: 'github', eventType: 'install' });
    await checkPage(page, 'hub-item-install-claude-code');

    // Home goes back to the first form; a "Copied." of another tab's text is not carried over.
    await page.getByRole('tab', { name: 'Claude Code' }).focus();
    await page.keyboard.press('Home');
    expect(await focused(page)).toBe('Claude Desktop, Cursor');
    expect(await region.getByText('Copied.').count()).toBe(0);
    await tabs.getByRole('tab', { name: 'VS Code' }).click();
    await checkPage(page, 'hub-item-install-vscode');
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

  it("links a skill's bundle with its size and SHA-256, downloads the uploaded bytes and counts the install", async () => {
    const zip = await buildZip(
      {
        'SKILL.md': skillMd('pdf-tools'),
        'scripts/run.py': 'print("hello")\n',
        'notes.md': 'A line of notes.\n'.repeat(200),
      },
      { compress: false },
    );
    expect(zip.length).toBeGreaterThan(1024); // shown in KB
    const slug = await publishSkillWithBundle(zip);
    const page = await w.newPage();
    await page.goto(`/hub/skill/${slug}`);
    const install = page.getByRole('region', { name: 'Install' });
    await install.getByText(`~/.claude/skills/${slug}/`).waitFor();
    const link = install.getByRole('link', {
      name: `Download the bundle (.zip, ${(zip.length / 1024).toFixed(1)} KB)`,
    });
    const { bundle } = (await publicItem('skill', slug)).currentVersion;
    expect(bundle).toEqual({ url: expect.any(String), sha256: sha256(zip), sizeBytes: zip.length });
    expect(await link.getAttribute('href')).toBe(bundle?.url);
    await install.getByText(sha256(zip)).waitFor();
    await checkPage(page, 'hub-skill-install');

    const before = (await publicItem('skill', slug)).stats.installCount;
    const sent = page.waitForRequest(
      (r) => r.url().endsWith('/api/v1/telemetry') && r.postDataJSON()?.eventType === 'install',
    );
    const downloaded = page.waitForEvent('download');
    await link.click();
    expect((await sent).postDataJSON()).toEqual({ itemType: 'skill', slug, eventType: 'install' });
    const file = await (await downloaded).path();
    expect(sha256(await readFile(file))).toBe(sha256(zip));
    const after = await waitUntil(async () => {
      const now = (await publicItem('skill', slug)).stats.installCount;
      return now > before ? now : undefined;
    }, 30_000);
    expect(after).toBe(before + 1);
  });

  it("offers a demo skill's seeded bundle, so a new user's first skill page has one to download", async () => {
    const page = await w.newPage();
    await page.goto('/hub/skill/release-notes');
    const install = page.getByRole('region', { name: 'Install' });
    const link = install.getByRole('link', { name: /^Download the bundle \(\.zip, [\d.]+ (KB|B)\)$/ });
    const { bundle } = (await publicItem('skill', 'release-notes')).currentVersion;
    expect(await link.getAttribute('href')).toBe(bundle?.url);
    await install.getByText(bundle?.sha256 ?? 'no bundle').waitFor();
    await page.getByText("Runs no code: this skill's bundle holds no scripts or programs.").waitFor();
    const downloaded = page.waitForEvent('download');
    await link.click();
    expect(sha256(await readFile(await (await downloaded).path()))).toBe(bundle?.sha256);
    await checkPage(page, 'hub-demo-skill-install');
  });

  it("says where a skill's folder goes when the hub holds no bundle, and links an agent's package with its checksum", async () => {
    const { slug } = await publishSkillWithoutBundle(w.h, await createActors(w.h));
    const page = await w.newPage();
    await page.goto(`/hub/skill/${slug}`);
    const install = page.getByRole('region', { name: 'Install' });
    await install.getByText(`~/.claude/skills/${slug}/`).waitFor();
    await install.getByText('This version has no bundle stored on the hub').waitFor();
    expect(await install.getByRole('link', { name: /Download the bundle/ }).count()).toBe(0);
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
