// What a new user's trial found next (2026-11-28): a moderator approved a skill whose files the review page listed
// but could not open, so nobody had read what was published.
import { createActors, createDraft, submit, uploadBundle } from '../support/catalog-factory.js';
import { waitUntil } from '../support/harness.js';
import { bearer, TEST_PASSWORD } from '../support/identity.js';
import { buildZip } from '../support/zip-builders.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

let w: ConsoleWorld;
beforeAll(async () => {
  w = await openConsoleWorld();
});
afterAll(async () => w?.close());

const skillMdText =
  '---\nname: csv-tidy\ndescription: Tidies CSV files.\n---\n# CSV tidy\n\nRun `scripts/tidy.sh <file>`; it never\n' +
  'uploads anything.\n\n<b>not bold</b> <script>alert(1)</script>\n';

describe('a moderator reviewing a skill', () => {
  it("reads SKILL.md's exact text in place, as plain text, before approving", async () => {
    const actors = await createActors(w.h);
    const draft = await createDraft(w.h, actors, 'skill', { name: 'CSV tidy' });
    const zip = await buildZip({
      'csv-tidy/SKILL.md': skillMdText,
      'csv-tidy/scripts/tidy.sh': 'sort -u "$1"\n',
      'csv-tidy/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x00]),
    });
    expect((await uploadBundle(w.h, actors, draft, zip)).status).toBe(200);
    expect((await submit(w.h, actors, 'skill', draft.id)).status).toBe(200);
    // The worker's parse fills the files the page lists.
    await waitUntil(async () => {
      const res = await w.h.http.get(`/api/v1/moderation/skill/${draft.id}`).set(bearer(actors.moderator.session));
      return res.body.versions?.[0]?.bundleFiles;
    }, 30_000);

    const page = await w.newPage();
    await signIn(page, actors.moderator.email, TEST_PASSWORD, `/moderation/skill/${draft.id}`);
    const files = page.getByRole('region', { name: 'Files of the bundle under review' });
    const skillMd = files.locator('details').filter({ has: page.locator('summary', { hasText: 'SKILL.md' }) });
    await skillMd.locator('summary').click();
    const shown = skillMd.locator('pre');
    await shown.waitFor();
    expect(await shown.textContent()).toBe(skillMdText);
    // Text, never markup: the tags are characters on the page, not elements.
    expect(await skillMd.locator('b, script').count()).toBe(0);

    const logo = files.locator('details').filter({ has: page.locator('summary', { hasText: 'logo.png' }) });
    await logo.locator('summary').click();
    await logo.getByText('A binary file: not shown.').waitFor();
    const script = files.locator('details').filter({ has: page.locator('summary', { hasText: 'scripts/tidy.sh' }) });
    await script.locator('summary').click();
    expect(await script.locator('pre').textContent()).toBe('sort -u "$1"\n');
    await checkPage(page, 'review-bundle-files');

    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.waitForURL(/\/moderation$/);
    await page.getByRole('status').filter({ hasText: 'Approved CSV tidy 1.0.0' }).waitFor();
  });
});
