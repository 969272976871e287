// A browser test world: the real API listening on a loopback port (it serves the built console), real worker
// processes, the simulated AI provider, a seeded database (Admin, default organization, templates, demo catalog),
// and Debian's Chromium driven by playwright-core. Every page is checked with axe-core and photographed, at a
// laptop's width and a phone's.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { runSeed } from '../../scripts/seed/seed-steps.js';
import { CHROMIUM_PATH } from '../../scripts/services.js';
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';
import { inheritedEnv } from '../../shared/config/index.js';
import { createActors } from '../support/catalog-factory.js';
import { SIMULATOR_KEY, simulatorUpstreams } from '../support/gateway.js';
import {
  createHarness,
  freshTestDatabase,
  type Harness,
  repoRoot,
  startProcess,
  type WorkerProcess,
} from '../support/harness.js';
import { bearer, TEST_PASSWORD } from '../support/identity.js';
import { listeningServer } from '../support/loopback-ports.js';

export const SCREENSHOT_DIR = path.join(repoRoot, 'test-results', 'console');
/** The three screenshots the README shows, copied to docs/screenshots when UPDATE_README_SCREENSHOTS=1. */
const README_SHOTS = ['hub', 'wallet', 'video-tasks'];

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Flags that keep a headless Chromium off the network it would otherwise call on its own (there is none here). */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type ConsoleWorld = {
  h: Harness;
  sim: SimulatedProvider;
  baseUrl: string;
  admin: { email: string; password: string };
  browser: Browser;
  /**
   * A fresh browser context (its own cookies) and page; console problems are collected for `expectCleanConsole`.
   * `device` sets the context's viewport and touch (a phone: `{ viewport: PHONE, hasTouch: true }`).
   */
  newPage(device?: { viewport?: { width: number; height: number }; hasTouch?: boolean }): Promise<Page>;
  close(): Promise<void>;
};

type Watched = { problems: string[] };
const watched = new WeakMap<Page, Watched>();

export async function openConsoleWorld(): Promise<ConsoleWorld> {
  const { server, origin: baseUrl } = await listeningServer();
  const sim = await startSimulatedProvider({ apiKey: SIMULATOR_KEY, chunkDelayMs: 2, videoDurationMs: 1500 });
  const h = await createHarness({
    // Its own database: the pages show counts (a catalog's total, a wallet's balance) that another file's world in
    // the same jest worker would change.
    DATABASE_URL: await freshTestDatabase(),
    PUBLIC_BASE_URL: baseUrl,
    ...simulatorUpstreams(sim.url),
    VIDEO_POLL_INTERVAL_MS: '300',
    OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
    CATALOG_READ_CACHE_MS: '0',
  });
  await runSeed(h.ctx);
  server.on('request', h.app);
  // Generous, like every wait here: the browser tests share two cores with other test runs.
  const worker: WorkerProcess = await startProcess(h.env, { readyWithinMs: 60_000 });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: chromiumArgs });
  const contexts: BrowserContext[] = [];

  return {
    h,
    sim,
    baseUrl,
    admin: { email: h.config.ADMIN_EMAIL, password: h.config.ADMIN_PASSWORD },
    browser,
    async newPage(device = {}) {
      const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 }, ...device });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
      contexts.push(context);
      const page = await context.newPage();
      // Generous: CI shares two cores with other test runs; every wait here is for an event, never a sleep.
      page.setDefaultTimeout(30_000);
      page.setDefaultNavigationTimeout(45_000);
      const state: Watched = { problems: [] };
      watched.set(page, state);
      page.on('console', (m) => {
        if (/Content Security Policy|Refused to/i.test(m.text())) state.problems.push(`CSP: ${m.text()}`);
      });
      page.on('pageerror', (err) => state.problems.push(`page error: ${err.message}`));
      return page;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await worker.stop();
      await new Promise((r) => server.close(r));
      await h.close();
      await sim.close();
    },
  };
}

/** No Content-Security-Policy refusal and no uncaught script error happened on this page so far. */
export function expectCleanConsole(page: Page): void {
  expect(watched.get(page)?.problems ?? []).toEqual([]);
}

export async function signIn(page: Page, email: string, password: string, next = '/account'): Promise<void> {
  await page.goto(`/sign-in?next=${encodeURIComponent(next)}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
  // The router keeps the sign-in page on screen while it loads the next page's code: until its heading is gone, the
  // header on screen is the sign-in page's, and a Menu opened on it closes when the new path commits (a CI run timed
  // out waiting for it to open).
  await page.getByRole('heading', { level: 1, name: 'Sign in', exact: true }).waitFor({ state: 'detached' });
}

type AxeResult = { violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] };

/** axe-core's serious and critical violations on the page as it is laid out now, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  const loaded = await page.evaluate("'axe' in window");
  if (!loaded) await page.evaluate(axeSource);
  // A string expression (the test code has no DOM types): axe's own run over the whole document.
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as AxeResult;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * axe-core on the page as it is: no serious or critical violation; then a full-page screenshot. The same again at a
 * phone's width (tables are cards there), with its own screenshot.
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  expect({ page: name, serious: await seriousViolations(page) }).toEqual({ page: name, serious: [] });
  expectCleanConsole(page);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await expectFitsPhone(page, name);
  if (README_SHOTS.includes(name) && inheritedEnv().UPDATE_README_SCREENSHOTS === '1') {
    const docs = path.join(repoRoot, 'docs', 'screenshots');
    mkdirSync(docs, { recursive: true });
    copyFileSync(file, path.join(docs, `${name}.png`));
  }
}

/** Waits until the table named `label` shows exactly `count` rows. */
export const rowsShown = (page: Page, label: string, count: number) =>
  page.waitForFunction(
    ([name, n]) =>
      (
        globalThis as unknown as { document: { querySelectorAll(s: string): { length: number } } }
      ).document.querySelectorAll(`table[aria-label="${name}"] tbody tr`).length === n,
    [label, count] as const,
  );

/** The text of the element holding the keyboard's focus. */
export const focused = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document
        .activeElement?.textContent ?? null,
  );

/** Whether the element holds the keyboard's focus. */
export const hasFocus = (element: Locator) =>
  element.evaluate(
    (e) => e === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
  );

/** A phone's width: the console is used on one too. */
export const PHONE = { width: 390, height: 844 };

/** Two frames: a new layout (after a viewport change) and the ResizeObserver callbacks (charts redraw) have run. */
export async function laidOut(page: Page): Promise<void> {
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
}

/**
 * Elements that reach past the right edge of the viewport, outside any box that scrolls on its own (a wide table
 * scrolls inside its `.table-wrap`): each makes the whole page scroll sideways. A string expression, as in checkPage.
 */
const sticksOut = `(() => {
  const edge = document.documentElement.clientWidth + 0.5;
  const scrollsOwn = (e) => { for (let p = e.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
  return [...document.body.querySelectorAll('*')]
    .filter((e) => e.getBoundingClientRect().right > edge && !scrollsOwn(e))
    .slice(0, 5)
    .map((e) => e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : '') + ' "' + (e.textContent || '').trim().slice(0, 30) + '"');
})()`;

/**
 * At a phone's width nothing sticks out sideways and axe finds no serious or critical violation; the page is
 * photographed there too (`<page>-390.png`).
 */
async function expectFitsPhone(page: Page, name: string): Promise<void> {
  const desktop = page.viewportSize();
  await page.setViewportSize(PHONE);
  await laidOut(page);
  const wide = (await page.evaluate(sticksOut)) as string[];
  const serious = await seriousViolations(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${PHONE.width}.png`), fullPage: true });
  if (desktop) await page.setViewportSize(desktop);
  expect({ page: name, width: PHONE.width, sticksOut: wide, serious }).toEqual({
    page: name,
    width: PHONE.width,
    sticksOut: [],
    serious: [],
  });
}

type Watcher = {
  textWasShown: boolean;
  document: { documentElement: { textContent: string | null } | null };
  MutationObserver: new (f: () => void) => { observe(n: unknown, o: unknown): void };
};

/** The observer of `watchFor`, as a function the page runs: notes whether `watched` is ever in the document. */
const watchText = (watched: string) => {
  const g = globalThis as unknown as Watcher;
  g.textWasShown = false;
  new g.MutationObserver(() => {
    if (g.document.documentElement?.textContent?.includes(watched)) g.textWasShown = true;
  }).observe(g.document, { childList: true, subtree: true, characterData: true });
};

/** From now on, notes whether `text` is ever in the page, however briefly (read with `wasShown`). */
export async function watchFor(page: Page, text: string): Promise<void> {
  await page.evaluate(watchText, text);
}

/** As `watchFor`, from the start of every page the tab loads next (before the console's first paint). */
export async function watchForFromStart(page: Page, text: string): Promise<void> {
  await page.addInitScript(watchText, text);
}

export const wasShown = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { textWasShown: boolean }).textWasShown);

export type McpEntries = Record<
  'tools' | 'resources' | 'prompts' | 'configFields',
  Record<string, unknown>[] | undefined
>;

/** An MCP draft's version 1.0.0 as the API answers its publisher. */
export async function mcpDraftVersion(w: ConsoleWorld, publisherSession: string, id: string): Promise<McpEntries> {
  const res = await w.h.http.get(`/api/v1/publisher/mcp/${id}`).set(bearer(publisherSession));
  expect(res.status).toBe(200);
  return (res.body.versions as ({ version: string } & McpEntries)[]).find((v) => v.version === '1.0.0') as McpEntries;
}

export type McpDraftItem = { slug: string; name: string; summary: string; description: string };

/** A new publisher on the new MCP server page, with the item's slug, name, summary and description filled in. */
export async function openNewMcpDraft(w: ConsoleWorld, item: McpDraftItem) {
  const actors = await createActors(w.h);
  const page = await w.newPage();
  await signIn(page, actors.publisher.email, TEST_PASSWORD, '/publisher/new/mcp');
  await page.getByLabel('Slug').fill(item.slug);
  await page.getByLabel('Name', { exact: true }).fill(item.name);
  await page.getByLabel('Summary').fill(item.summary);
  await page.getByLabel('Description', { exact: true }).fill(item.description);
  return { actors, page };
}
