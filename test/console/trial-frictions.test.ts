// What a new user's trial found next (2026-11-28): a moderator approved a skill whose files the review page listed
// but could not open, so nobody had read what was published; a team whose gateway requests were answered 429 found no
// quota on the Gateway page; and the Overview told a platform Admin only to redeem a code, though they can recharge.
import { createActors, createDraft, submit, uploadBundle } from '../support/catalog-factory.js';
import { aProjectWithKey } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { bearer, createUser, TEST_PASSWORD } from '../support/identity.js';
import { aMember, anOrganization, inOrg } from '../support/org-fixtures.js';
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

describe('a team whose gateway requests are answered 429', () => {
  it("sees the project's quota used today against its limit on the Gateway page, and an Admin the way to change it", async () => {
    const { org, projectId, key } = await aProjectWithKey(w.h, '5');
    const limited = await w.h.http
      .post(`/api/projects/${projectId}/quota`)
      .set(inOrg(org.admin, org.id))
      .send({ dailyRequestLimit: 1 });
    expect(limited.status).toBe(200);
    const ask = () =>
      fetch(`${w.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'anthropic-version': '2023-06-01',
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          model: 'claude-haiku-4-5',
          max_tokens: 16,
          messages: [{ role: 'user', content: 'Hi' }],
        }),
      });
    expect((await ask()).status).toBe(200);
    expect((await ask()).status).toBe(429);

    const page = await w.newPage();
    await signIn(page, org.admin.email, TEST_PASSWORD, `/gateway/${projectId}`);
    const quota = page.getByRole('region', { name: 'Quota' });
    const today = quota.getByRole('progressbar', { name: 'Requests today' });
    await today.waitFor();
    expect([await today.getAttribute('aria-valuenow'), await today.getAttribute('aria-valuemax')]).toEqual(['1', '1']);
    await quota.getByText('1 of 1').waitFor();
    await quota.getByText('429 Project.QuotaExceeded').waitFor();
    await checkPage(page, 'gateway-quota');
    await quota.getByRole('link', { name: "Change the limits on the project's page" }).click();
    await page.waitForURL(new RegExp(`/org/projects/${projectId}$`));
    await page.getByRole('form', { name: 'Project quota' }).waitFor();

    // A Member of the project reads the same quota, and who sets it.
    const member = await aMember(w.h, org);
    const added = await w.h.http
      .post(`/api/projects/${projectId}/members`)
      .set(inOrg(org.admin, org.id))
      .send({ userId: member.accountId, role: 'Member' });
    expect(added.status).toBe(201);
    const memberPage = await w.newPage();
    await signIn(memberPage, member.email, TEST_PASSWORD, `/gateway/${projectId}`);
    const seen = memberPage.getByRole('region', { name: 'Quota' });
    await seen.getByText("An organization Admin or the project's Owner sets the limits.").waitFor();
    expect(await seen.getByRole('link').count()).toBe(0);

    // The project's Owner, a Member of the organization, may change them: the link, not the sentence naming them.
    const owner = await aMember(w.h, org);
    const made = await w.h.http
      .post(`/api/projects/${projectId}/members`)
      .set(inOrg(org.admin, org.id))
      .send({ userId: owner.accountId, role: 'Owner' });
    expect(made.status).toBe(201);
    const ownerPage = await w.newPage();
    await signIn(ownerPage, owner.email, TEST_PASSWORD, `/gateway/${projectId}`);
    await ownerPage
      .getByRole('region', { name: 'Quota' })
      .getByRole('link', { name: "Change the limits on the project's page" })
      .click();
    await ownerPage.waitForURL(new RegExp(`/org/projects/${projectId}$`));
    await ownerPage.getByRole('form', { name: 'Project quota' }).waitFor();
  });
});

describe("the Overview's next steps for an empty wallet", () => {
  it("tell a platform Admin who is also the organization's Admin both ways: recharge, or redeem a code", async () => {
    const admin = await createUser(w.h, { roles: ['Admin'], name: 'Ada Platform' });
    await anOrganization(w.h, admin, 'Empty Wallet');
    const page = await w.newPage();
    await signIn(page, admin.email, TEST_PASSWORD, '/org');
    const money = page.getByTestId('next-money');
    await money.getByRole('link', { name: 'Recharge it, or redeem a top-up code, on the Wallet page' }).click();
    await page.waitForURL(/\/org\/wallet$/);
    await page.getByRole('heading', { name: 'Recharge (platform Admin)' }).waitFor();
    await page.getByRole('heading', { name: 'Redeem a top-up code' }).waitFor();
  });
});
