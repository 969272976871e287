// A Publisher's and a Moderator's walk through the console, for what publishing.test.ts does not already walk: a
// taken namespace slug, drafts with every field filled as a person would, edits of a sent-back draft, a note for
// the moderator, the queue by type, decisions refused without their reasons, a rejection and a resubmission, a
// withdrawal and a resubmission in the page, a new version of a published item beside the published one, a
// decision on a version the publisher changed in another tab, keeping a draft after "Delete this draft", and the
// resolved reports. Also where a person looks: a published item with a new version says both (published, and the
// new version's state), and on a phone the Submit action is on the first screen, above the long form.
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { recordSkillContents } from '../../shared/catalog/skill-contents.js';
import { waitUntil } from '../support/harness.js';
import { bearer, createUser, TEST_PASSWORD, type TestUser } from '../support/identity.js';
import { buildZip } from '../support/zip-builders.js';
import {
  type ConsoleWorld,
  checkPage,
  laidOut,
  openConsoleWorld,
  PHONE,
  SCREENSHOT_DIR,
  signIn,
} from './console-world.js';

let w: ConsoleWorld;
let publisher: TestUser;
let pub: Page;
let mod: Page;

beforeAll(async () => {
  w = await openConsoleWorld();
  publisher = await createUser(w.h, { roles: ['Publisher'], name: 'Rae Publisher' });
  const moderator = await createUser(w.h, { roles: ['Moderator'], name: 'Max Moderator' });
  pub = await w.newPage();
  mod = await w.newPage();
  await signIn(pub, publisher.email, TEST_PASSWORD, '/publisher');
  await signIn(mod, moderator.email, TEST_PASSWORD, '/moderation');
});
afterAll(() => w?.close());

type Meta = { slug: string; name: string; summary: string; description: string; tags: string; category: string };

async function newDraft(type: string, meta: Meta) {
  await pub.goto(`/publisher/new/${type}`);
  await pub.getByLabel('Slug').fill(meta.slug);
  await pub.getByLabel('Name', { exact: true }).fill(meta.name);
  await pub.getByLabel('Summary').fill(meta.summary);
  await pub.getByLabel('Description').fill(meta.description);
  await pub.getByLabel('Tags').fill(meta.tags);
  await pub.getByRole('checkbox', { name: meta.category }).check();
  await pub.getByLabel('Changelog (optional)').fill('First release.');
  await pub.getByLabel('License (optional)').fill('MIT');
  await pub.getByLabel('Source URL (optional)').fill(`https://github.com/rae/${meta.slug}`);
  await pub.getByLabel('Readme (optional)').fill(`# ${meta.name}\n\n${meta.description}`);
}

async function createDraft(name: string) {
  await pub.getByRole('button', { name: 'Create draft' }).click();
  await pub.getByRole('heading', { name, level: 1 }).waitFor();
}

async function submit(note?: string) {
  if (note) await pub.getByLabel('Note for the moderator (optional)').fill(note);
  await pub.getByRole('button', { name: /^Submit version/ }).click();
  await pub.locator('p .badge', { hasText: 'in review' }).waitFor();
}

async function openReview(name: string) {
  await mod.goto('/moderation');
  await mod.getByRole('link', { name }).click();
  await mod.getByRole('heading', { name: `Review: ${name}` }).waitFor();
}

async function decide(action: 'Approve' | 'Request changes' | 'Reject', text?: string) {
  if (text) await mod.getByLabel('Comment or reasons').fill(text);
  await mod.getByRole('button', { name: action, exact: true }).click();
  await mod.waitForURL(/\/moderation$/);
}

/** The badges saying where the item stands, beside its slug under the page title. */
const headerBadges = () => pub.locator('.page > p').first().locator('.badge').allTextContents();

/**
 * Where the Submit action is: on a wide screen in the right column beside the edit form; at a phone's width above
 * the form, within the first screen (photographed as `<name>-390-first-screen.png`, the screen a person sees).
 */
async function expectSubmitWherePeopleLook(name: string) {
  const boxOf = async (locator: Locator) => {
    const box = await locator.boundingBox();
    if (!box) throw new Error(`${locator} is not shown`);
    return box;
  };
  const submitButton = pub.getByRole('button', { name: /^Submit version/ });
  const form = pub.getByRole('form', { name: 'Edit the draft' });
  const desktop = pub.viewportSize();
  const wide = { button: await boxOf(submitButton), form: await boxOf(form) };
  expect(wide.button.x).toBeGreaterThanOrEqual(wide.form.x + wide.form.width);
  await pub.setViewportSize(PHONE);
  try {
    await pub.evaluate('window.scrollTo(0, 0)');
    await laidOut(pub);
    const phone = { button: await boxOf(submitButton), form: await boxOf(form) };
    expect(phone.button.y + phone.button.height).toBeLessThanOrEqual(PHONE.height);
    expect(phone.button.y + phone.button.height).toBeLessThanOrEqual(phone.form.y);
    await pub.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${PHONE.width}-first-screen.png`) });
  } finally {
    if (desktop) await pub.setViewportSize(desktop);
  }
}

const skillZip = (description: string) =>
  buildZip({
    'pdf-summary/SKILL.md': `---\nname: pdf-summary\ndescription: ${description}\n---\n# PDF summary\n\nRun scripts/summarize.py on the file.\n`,
    'pdf-summary/scripts/summarize.py': 'print("summary")\n',
  });

describe('a publisher and a moderator walk the console', () => {
  it("refuses a namespace slug another publisher holds, with the API's error", async () => {
    await pub.getByLabel('Namespace slug').fill('rae-tools');
    await pub.getByLabel('Display name').fill('Rae Tools');
    await pub.getByRole('button', { name: 'Create namespace' }).click();
    await pub.getByText('rae-tools', { exact: true }).waitFor();

    const other = await createUser(w.h, { roles: ['Publisher'] });
    const page = await w.newPage();
    await signIn(page, other.email, TEST_PASSWORD, '/publisher');
    await page.getByText('No namespace yet').waitFor();
    await page.getByLabel('Namespace slug').fill('rae-tools');
    await page.getByLabel('Display name').fill('Not Rae');
    await page.getByRole('button', { name: 'Create namespace' }).click();
    await page.getByRole('alert').waitFor();
    await checkPage(page, 'walk-namespace-taken');
  });

  it('creates an MCP server draft with every field, edits it, and submits it with a note the queue shows', async () => {
    await newDraft('mcp', {
      slug: 'issue-tracker-mcp',
      name: 'Issue tracker',
      summary: 'Search and file issues from your editor.',
      description: 'Lists, searches and creates issues in a self-hosted tracker.',
      tags: 'issues, tracker',
      category: 'Developer tools',
    });
    await pub.getByLabel('Icon URL (optional)').fill('https://icons.example/tracker.png');
    await pub.getByRole('button', { name: 'Add a connection' }).click();
    await pub.getByLabel('Transport 1').selectOption('streamable-http');
    await pub.getByLabel('URL 1').fill('https://tracker.example/mcp');
    await pub.getByRole('button', { name: 'Add a tool' }).click();
    await pub.getByLabel('Tool 1 name').fill('search_issues');
    await pub.getByLabel('Tool 1 description').fill('Full-text search');
    await pub.getByRole('button', { name: 'Add a setting' }).click();
    await pub.getByLabel('Setting 1 name').fill('TRACKER_TOKEN');
    await pub.getByLabel('Setting 1 type').selectOption('secret');
    await pub.getByLabel('Setting 1 required').check();
    await pub.getByLabel('Permissions').fill('network');
    await checkPage(pub, 'walk-new-mcp');
    await createDraft('Issue tracker');
    await checkPage(pub, 'walk-mcp-draft');
    await expectSubmitWherePeopleLook('walk-mcp-draft');

    // An edit of the metadata and of the version, kept after a reload. While it is not saved, the version cannot be
    // submitted: it would go to review as last saved, and the edit would be lost.
    const submitButton = pub.getByRole('button', { name: /^Submit version/ });
    await pub.getByLabel('Name', { exact: true }).fill('Issue tracker MCP');
    await pub.getByLabel('Tags').fill('issues, tracker, bugs');
    await pub.getByText('Save your changes first: a version is submitted as it was last saved.').waitFor();
    expect(await submitButton.isDisabled()).toBe(true);
    await checkPage(pub, 'walk-mcp-unsaved');
    await pub.getByRole('button', { name: 'Save changes' }).click();
    await pub.getByText('Saved.', { exact: true }).waitFor();
    await pub.getByRole('heading', { name: 'Issue tracker MCP', level: 1 }).waitFor();
    expect(await submitButton.isDisabled()).toBe(false);
    await pub.reload();
    expect(await pub.getByLabel('Tags').inputValue()).toBe('issues, tracker, bugs');
    expect(await pub.getByLabel('URL 1').inputValue()).toBe('https://tracker.example/mcp');

    await submit('Token scopes: read and write issues.');
    await checkPage(pub, 'walk-mcp-in-review');

    await mod.goto('/moderation');
    await mod.getByLabel('Type').selectOption('mcp');
    const row = mod.getByRole('row').filter({ hasText: 'Issue tracker MCP' });
    await row.getByText('Token scopes: read and write issues.').waitFor();
    await checkPage(mod, 'walk-queue-mcp');
    await mod.getByLabel('Type').selectOption('soul');
    await mod.getByText('Nothing is waiting for review.').waitFor();
    expect(new URL(mod.url()).searchParams.get('type')).toBe('soul');
  });

  it("shows the moderator the publisher's note and everything the version would publish", async () => {
    await openReview('Issue tracker MCP');
    await mod.getByRole('region', { name: 'Note from the publisher' }).getByText('Token scopes').waitFor();
    const underReview = mod.getByRole('region', { name: 'Under review: 1.0.0' });
    await underReview.getByText('Developer tools').waitFor();
    await underReview.getByText('https://icons.example/tracker.png').waitFor();
    await underReview.getByText('MIT', { exact: true }).waitFor();
    await underReview.getByRole('link', { name: 'https://github.com/rae/issue-tracker-mcp' }).waitFor();
    await underReview.getByText('Lists, searches and creates issues in a self-hosted tracker.').first().waitFor();
    await underReview.getByRole('heading', { name: 'Readme' }).waitFor();
    await underReview.getByText('# Issue tracker').waitFor();
    await mod.getByRole('list', { name: 'Review history' }).getByText('Token scopes').waitFor();
    await checkPage(mod, 'walk-review-mcp');
  });

  it('refuses a decision without its reasons, then requests changes the publisher reads and answers', async () => {
    await openReview('Issue tracker MCP');
    await mod.getByRole('button', { name: 'Request changes', exact: true }).click();
    await mod.getByText('Say what should change.').waitFor();
    // The reasons field takes the focus, marked invalid: a screen reader reads it with its message.
    const focused = "[document.activeElement?.tagName, document.activeElement?.getAttribute('aria-invalid')]";
    expect(await mod.evaluate(focused)).toEqual(['TEXTAREA', 'true']);
    await mod.getByRole('button', { name: 'Reject', exact: true }).click();
    await mod.getByText('A rejection needs a reason.').waitFor();
    await checkPage(mod, 'walk-review-missing-reason');
    await decide('Request changes', 'Name the token scopes in a setting description.');

    await pub.reload();
    await pub.getByRole('alert', { name: "Reviewer's reasons" }).getByText('Name the token scopes').waitFor();
    await checkPage(pub, 'walk-mcp-changes-requested');
    await pub.getByLabel('Setting 1 description').fill('Scopes: issues:rw');
    await pub.getByRole('button', { name: 'Save changes' }).click();
    await pub.getByText('Saved.', { exact: true }).waitFor();
    await submit();
    await openReview('Issue tracker MCP');
    await decide('Approve');
    const visitor = await w.newPage();
    await visitor.goto('/hub/mcp/issue-tracker-mcp');
    await visitor.getByText('Scopes: issues:rw').waitFor();
  });

  it('a skill: bundle uploaded, submitted, withdrawn, a new bundle uploaded, resubmitted; rejected, then approved', async () => {
    await newDraft('skill', {
      slug: 'pdf-summary',
      name: 'PDF summary',
      summary: 'Summarises long PDF files.',
      description: 'Reads a PDF and writes a one-page summary.',
      tags: 'pdf, documents',
      category: 'Documents',
    });
    await createDraft('PDF summary');
    await pub
      .getByLabel(/Skill bundle/)
      .setInputFiles({ name: 'pdf-summary.zip', mimeType: 'application/zip', buffer: await skillZip('Summaries') });
    await pub.getByRole('button', { name: 'Upload bundle' }).click();
    await pub.getByText(/Uploaded: .*, 2 files, SHA-256/).waitFor();
    await submit();
    await pub.getByText(/Bundle parsed: 2 files/).waitFor({ timeout: 30_000 });
    await pub.getByRole('button', { name: 'Withdraw from review' }).click();
    await pub.locator('p .badge', { hasText: 'draft' }).waitFor();
    await checkPage(pub, 'walk-skill-withdrawn');
    const zip = await skillZip('Summarises long PDF files into one page.');
    await pub.getByLabel(/Skill bundle/).setInputFiles({ name: 'v2.zip', mimeType: 'application/zip', buffer: zip });
    await pub.getByRole('button', { name: 'Upload bundle' }).click();
    await pub.getByText(/Uploaded: /).waitFor();
    await submit();
    await pub.getByText(/Bundle parsed: 2 files/).waitFor({ timeout: 30_000 });

    await openReview('PDF summary');
    await mod
      .getByRole('status')
      .filter({ hasText: 'Resubmitted: the publisher withdrew this version once' })
      .waitFor();
    await decide('Reject', 'The summary script prints a constant.');
    await pub.reload();
    const reasons = pub.getByRole('alert', { name: "Reviewer's reasons" });
    await reasons.getByText('Rejected:').waitFor();
    await reasons.getByText('The summary script prints a constant.').waitFor();
    await checkPage(pub, 'walk-skill-rejected');
    // A rejected draft can be resubmitted as it is; its bundle is parsed again.
    await submit();
    await pub.getByText(/Bundle parsed: 2 files/).waitFor({ timeout: 30_000 });
    // While a parse is pending the moderator sees so, and Approve waits for it: the parse's write is undone and
    // redone by hand here, as the worker makes it, to hold the page in that state.
    const as = bearer(publisher.session);
    const mine = await w.h.http.get('/api/v1/publisher/skill/mine').set(as);
    const item = mine.body.find((i: { slug: string }) => i.slug === 'pdf-summary');
    const versionId = item.pendingVersion.id as string;
    const detail = await w.h.http.get(`/api/v1/publisher/skill/${item.id}`).set(as);
    const parsed = detail.body.versions.find((v: { id: string }) => v.id === versionId).bundleFiles;
    expect(parsed).toHaveLength(2);
    await recordSkillContents(w.h.ctx.db, versionId, {});
    await openReview('PDF summary');
    await mod.getByRole('status').filter({ hasText: 'The bundle is being parsed' }).waitFor();
    expect(await mod.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(true);
    await checkPage(mod, 'walk-review-parsing');
    await recordSkillContents(w.h.ctx.db, versionId, { bundleFiles: parsed });
    const underReview = mod.getByRole('region', { name: 'Under review: 1.0.0' });
    await underReview.getByRole('listitem').filter({ hasText: 'scripts/summarize.py' }).waitFor();
    // The moderator downloads exactly the bundle under review.
    const bundle = detail.body.versions.find((v: { id: string }) => v.id === versionId).bundle;
    const bundleLink = underReview.getByRole('link', { name: /^\.zip, / });
    expect(await bundleLink.getAttribute('href')).toBe(bundle.url);
    await underReview.getByText(bundle.sha256).waitFor();
    const downloaded = await (await mod.request.get(bundle.url)).body();
    expect(createHash('sha256').update(downloaded).digest('hex')).toBe(createHash('sha256').update(zip).digest('hex'));
    await decide('Approve');
    await pub.reload();
    await pub.locator('p .badge', { hasText: 'published' }).waitFor();
  });

  it('a soul: published, then a new version reviewed beside the published one; a stale decision after an edit in another tab', async () => {
    await newDraft('soul', {
      slug: 'patient-tutor',
      name: 'Patient tutor',
      summary: 'Explains step by step, never in a hurry.',
      description: 'A tutor persona for learners.',
      tags: 'teaching',
      category: 'Mentors',
    });
    await pub.getByLabel('SOUL.md').fill('You are a patient tutor.\n\n- Ask what the learner knows first.');
    await createDraft('Patient tutor');
    await submit();
    await openReview('Patient tutor');
    await decide('Approve');

    await pub.reload();
    await pub.getByRole('heading', { name: 'Add a version' }).waitFor();
    const addVersion = pub.getByRole('form', { name: 'Add a version' });
    // It starts from the published version's fields: only what changes is typed again.
    expect(await addVersion.getByLabel('License (optional)').inputValue()).toBe('MIT');
    expect(await addVersion.getByLabel('SOUL.md').inputValue()).toContain('Ask what the learner knows first.');
    expect(await addVersion.getByLabel('Version', { exact: true }).inputValue()).toBe('');
    await addVersion.getByLabel('Version', { exact: true }).fill('1.1.0');
    await addVersion.getByLabel('Changelog (optional)').fill('Checks understanding after each step.');
    await addVersion
      .getByLabel('SOUL.md')
      .fill('You are a patient tutor.\n\n- Ask what the learner knows first.\n- Check understanding after each step.');
    await addVersion.getByRole('button', { name: 'Add version' }).click();
    await pub.getByRole('button', { name: 'Submit version 1.1.0 for review' }).waitFor();
    // Still public with 1.0.0 while 1.1.0 is drafted and then reviewed: the page says both.
    expect(await headerBadges()).toEqual(['published', 'draft v1.1.0']);
    await checkPage(pub, 'walk-soul-new-version');
    await expectSubmitWherePeopleLook('walk-soul-new-version');
    await submit();
    expect(await headerBadges()).toEqual(['published', 'in review v1.1.0']);
    await pub.goto('/publisher');
    const listed = pub.getByRole('row').filter({ hasText: 'Patient tutor' });
    await listed.getByText('in review v1.1.0').waitFor();
    expect(await listed.locator('.badge').allTextContents()).toEqual(['published', 'in review v1.1.0']);
    await checkPage(pub, 'walk-publisher-items');
    await listed.getByRole('link', { name: 'Patient tutor' }).click();
    await pub.getByRole('heading', { name: 'Patient tutor', level: 1 }).waitFor();

    await openReview('Patient tutor');
    // The SOUL.md under review beside the published one.
    await mod
      .getByRole('region', { name: 'Published: 1.0.0' })
      .getByText('Ask what the learner knows first.')
      .waitFor();
    await mod.getByRole('region', { name: 'Under review: 1.1.0' }).getByText('Check understanding after').waitFor();
    await checkPage(mod, 'walk-review-update');

    // In another tab the publisher withdraws, edits the version and resubmits it while the review page is open.
    await pub.getByRole('button', { name: 'Withdraw from review' }).click();
    await pub.getByRole('button', { name: 'Save changes' }).waitFor();
    await pub.getByLabel('SOUL.md').fill('You are a patient tutor who never gives the answer away.');
    await pub.getByRole('button', { name: 'Save changes' }).click();
    await pub.getByText('Saved.', { exact: true }).waitFor();
    await submit();

    await mod.getByRole('button', { name: 'Approve', exact: true }).click();
    const stale = mod.getByRole('alert').filter({ hasText: 'This item changed after you opened it' });
    await stale.waitFor();
    await stale.getByRole('button', { name: 'Reload' }).click();
    await mod.getByRole('region', { name: 'Under review: 1.1.0' }).getByText('never gives the answer away').waitFor();
    await decide('Approve');
    const visitor = await w.newPage();
    await visitor.goto('/hub/soul/patient-tutor');
    await visitor.getByText('never gives the answer away').first().waitFor();
  });

  it('an agent draft: "Delete this draft" can be taken back with Keep, and then deleted', async () => {
    await newDraft('agent', {
      slug: 'release-notes-agent',
      name: 'Release notes agent',
      summary: 'Drafts release notes from merged pull requests.',
      description: 'Reads merged pull requests since the last tag and drafts the notes.',
      tags: 'releases',
      category: 'Operations',
    });
    await pub.getByLabel('Package URL (optional)').fill('https://packages.example/release-notes-agent-1.0.0.tgz');
    await pub.getByLabel('Checksum (optional)').fill(`sha256:${'b'.repeat(64)}`);
    await createDraft('Release notes agent');
    await pub.getByRole('button', { name: 'Delete this draft' }).click();
    await pub.getByRole('button', { name: 'Keep' }).click();
    await pub.getByRole('button', { name: 'Delete this draft' }).waitFor();
    await pub.getByRole('button', { name: 'Delete this draft' }).click();
    await pub.getByRole('button', { name: 'Delete for good' }).click();
    await pub.waitForURL(/\/publisher$/);
    await waitUntil(async () => (await pub.getByRole('link', { name: 'Release notes agent' }).count()) === 0);
    await checkPage(pub, 'walk-publisher-home');
  });

  it('resolves a report without a note and lists it under Resolved', async () => {
    const reporter = await createUser(w.h);
    const reported = await w.h.http
      .post('/api/v1/soul/patient-tutor/report')
      .set(bearer(reporter.session))
      .send({ reason: 'Spam', detail: 'Links to a course shop.' });
    expect(reported.status).toBe(200);
    await mod.goto('/moderation/reports');
    const row = mod.getByRole('row').filter({ hasText: 'Links to a course shop.' });
    await row.getByRole('button', { name: 'Resolve' }).click();
    await row.waitFor({ state: 'detached' });
    await mod.getByLabel('Status').selectOption('resolved');
    await mod.getByRole('row').filter({ hasText: 'Links to a course shop.' }).waitFor();
    await checkPage(mod, 'walk-reports-resolved');
  });
});
