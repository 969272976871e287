// Regression for the review's public-template-flood finding: anyone can make an organization and publish templates,
// which every other organization lists; the list was cut at 500 rows, oldest first, so a flood pushed everyone's own
// templates off it. Now an organization publishes at most MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION, and the list is
// paged with the built-in templates first, then the organization's own, then others' public ones.
import { and, count, eq } from 'drizzle-orm';
import { projectTemplates } from '../../shared/db/schema/index.js';
import {
  MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION,
  MAX_TEMPLATES_PAGE_SIZE,
  seedSystemTemplates,
} from '../../shared/organizations/project-templates.js';
import { createHarness, freshTestDatabase, type Harness } from '../support/harness.js';
import { anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  // A database of its own: the list's totals count every organization's public templates.
  h = await createHarness({ DATABASE_URL: await freshTestDatabase() });
  await seedSystemTemplates(h.ctx.db);
});
afterAll(() => h.close());

type Template = { id: string; name: string; isSystem: boolean; isPublic: boolean; organizationId?: string };

const post = (org: TestOrg, name: string, isPublic: boolean) =>
  h.http.post('/api/project-templates').set(inOrg(org.admin, org.id)).send({ name, isPublic });

const publicCount = async (organizationId: string) =>
  (
    await h.ctx.db
      .select({ n: count() })
      .from(projectTemplates)
      .where(and(eq(projectTemplates.organizationId, organizationId), eq(projectTemplates.isPublic, true)))
  )[0]?.n;

/** Publishes `n` public templates for `org` (all must be accepted). */
async function publish(org: TestOrg, n: number, label: string) {
  const made = await Promise.all(Array.from({ length: n }, (_, i) => post(org, `${label} ${i}`, true)));
  for (const r of made) expect(r.status).toBe(201);
}

it('the limits are 20 public templates per organization and pages of 100', () => {
  expect(MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION).toBe(20);
  expect(MAX_TEMPLATES_PAGE_SIZE).toBe(100);
});

it('answers 409 Template.PublicLimitReached past 20 public templates; private ones are still created', async () => {
  const org = await anOrganization(h, undefined, 'Publisher Co');
  await publish(org, 20, 'Ours');
  expectEnvelopeError(await post(org, 'The 21st', true), 409, 'Template.PublicLimitReached');
  expect(await publicCount(org.id)).toBe(20);
  const priv = await post(org, 'Private after the limit', false);
  expect(priv.status).toBe(201);
  expect(priv.body.data).toMatchObject({ isPublic: false, organizationId: org.id });
});

it('concurrent public creates with two places left make exactly two', async () => {
  for (let round = 0; round < 3; round++) {
    const org = await anOrganization(h, undefined, `Racer ${round}`);
    await publish(org, 18, 'Before');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => post(org, `Race ${i}`, true)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(6);
    expect(await publicCount(org.id)).toBe(20);
  }
}, 60_000);

it("a flood of other organizations' public templates hides neither the built-in nor the organization's own", async () => {
  const victim = await anOrganization(h, undefined, 'Victim Ltd');
  const early = await post(victim, 'Our early template', true);
  expect(early.status).toBe(201);
  // Six organizations of one attacker, each at its limit: 120 public templates, more than a page.
  for (let o = 0; o < 6; o++) {
    const attacker = await anOrganization(h, undefined, `Spam ${o}`);
    await publish(attacker, 20, `Starter (official) ${o}`);
    expectEnvelopeError(await post(attacker, 'One more', true), 409, 'Template.PublicLimitReached');
  }
  const late = await post(victim, 'Our private template', false);
  expect(late.status).toBe(201);

  const first = await h.http.get('/api/project-templates').set(inOrg(victim.admin, victim.id));
  expect(first.status).toBe(200);
  const data = first.body.data as Template[];
  expect(data).toHaveLength(100);
  expect(first.body).toMatchObject({ code: 200, error: null, page: 1, size: 100 });
  expect(first.body.total).toBeGreaterThan(100);
  // The built-in ones, then the victim's own (oldest first), then everyone else's public ones.
  expect(data.slice(0, 4).map((t) => t.name)).toEqual(['Starter', 'Professional', 'Enterprise', 'Custom']);
  expect(data.slice(4, 6).map((t) => t.name)).toEqual(['Our early template', 'Our private template']);
  expect(data.slice(6).every((t) => !t.isSystem && t.isPublic && t.organizationId !== victim.id)).toBe(true);

  // Every template is reachable by paging, each once.
  const seen = new Set(data.map((t) => t.id));
  for (let page = 2; (page - 1) * 100 < first.body.total; page++) {
    const next = await h.http.get(`/api/project-templates?page=${page}`).set(inOrg(victim.admin, victim.id));
    expect(next.body).toMatchObject({ page, size: 100, total: first.body.total });
    for (const t of next.body.data as Template[]) {
      expect(seen.has(t.id)).toBe(false);
      seen.add(t.id);
    }
  }
  expect(seen.size).toBe(first.body.total);

  // Another organization sees its own before the victim's public one and the flood.
  const bystander = await anOrganization(h, undefined, 'Bystander');
  expect((await post(bystander, 'Bystander own', false)).status).toBe(201);
  const theirs = (await h.http.get('/api/project-templates?size=5').set(inOrg(bystander.admin, bystander.id))).body;
  expect(theirs.data.map((t: Template) => t.name)).toEqual([
    'Starter',
    'Professional',
    'Enterprise',
    'Custom',
    'Bystander own',
  ]);
}, 120_000);

it.each(['size=0', 'size=101', 'page=0', 'page=x'])('refuses ?%s with 400 Template.InvalidQuery', async (q) => {
  const org = await anOrganization(h);
  expectEnvelopeError(
    await h.http.get(`/api/project-templates?${q}`).set(inOrg(org.admin, org.id)),
    400,
    'Template.InvalidQuery',
  );
});

it('deleting a public template frees its place under the limit', async () => {
  const org = await anOrganization(h, undefined, 'Tidy publisher');
  await publish(org, 20, 'Mine');
  expectEnvelopeError(await post(org, 'One more', true), 409, 'Template.PublicLimitReached');
  const list = await h.http.get('/api/project-templates').set(inOrg(org.admin, org.id));
  const first = list.body.data.find((t: Template) => t.organizationId === org.id);
  expect((await h.http.delete(`/api/project-templates/${first.id}`).set(inOrg(org.admin, org.id))).status).toBe(200);
  expect((await post(org, 'One more', true)).status).toBe(201);
  expect(await publicCount(org.id)).toBe(20);
});
