// What one organization may hold. Anyone can make an organization and be its Admin, and projects and templates are
// rows its lists carry: before these caps one account and a script created them at request speed without end.
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import { apiKeys, projects, projectTemplates } from '../../shared/db/schema/index.js';
import {
  MAX_PROJECTS_PER_ORGANIZATION,
  MAX_TEMPLATES_PER_ORGANIZATION,
} from '../../shared/organizations/organization-limits.js';
import { seedSystemTemplates } from '../../shared/organizations/project-templates.js';
import { createHarness, type Harness } from '../support/harness.js';
import { anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedSystemTemplates(h.ctx.db);
});
afterAll(() => h.close());

const rows = async (table: typeof projects | typeof projectTemplates, organizationId: string) =>
  (await h.ctx.db.select({ n: count() }).from(table).where(eq(table.organizationId, organizationId)))[0]?.n;

/** Fills the organization up to `n` projects straight in the database (a thousand requests would only be slow). */
async function projectsUpTo(org: TestOrg, n: number) {
  await h.ctx.db.execute(sql`
    INSERT INTO projects (organization_id, name, created_by)
    SELECT ${org.id}, 'Filler ' || i, ${org.admin.accountId} FROM generate_series(1, ${n}) AS i`);
}

it('are 1,000 projects and 100 templates of its own', () => {
  expect(MAX_PROJECTS_PER_ORGANIZATION).toBe(1_000);
  expect(MAX_TEMPLATES_PER_ORGANIZATION).toBe(100);
});

it('concurrent project creations with two places left make exactly two, blank or from a template', async () => {
  const org = await anOrganization(h, undefined, 'Project farm');
  await projectsUpTo(org, MAX_PROJECTS_PER_ORGANIZATION - 2);
  const starter = (await h.http.get('/api/project-templates').set(inOrg(org.admin, org.id))).body.data.find(
    (t: { isSystem: boolean }) => t.isSystem,
  );
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      i % 2 === 0
        ? h.http
            .post('/api/projects')
            .set(inOrg(org.admin, org.id))
            .send({ name: `Blank ${i}` })
        : h.http
            .post('/api/projects/from-template')
            .set(inOrg(org.admin, org.id))
            .send({ templateId: starter.id, name: `Templated ${i}` }),
    ),
  );
  expect(answers.filter((r) => r.status === 201)).toHaveLength(2);
  for (const refused of answers.filter((r) => r.status !== 201)) {
    expectEnvelopeError(refused, 409, 'Project.LimitReached');
  }
  expect(await rows(projects, org.id)).toBe(MAX_PROJECTS_PER_ORGANIZATION);
  // A refused project from a template made no API key either.
  const keys = await h.ctx.db
    .select({ n: count() })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, org.admin.accountId), isNotNull(apiKeys.projectId)));
  const templatedMade = answers.filter((r, i) => i % 2 === 1 && r.status === 201).length;
  expect(keys[0]?.n).toBe(templatedMade);

  // Deleting one frees its place.
  const made = answers.find((r) => r.status === 201)?.body.data;
  const projectId = made.project?.id ?? made.id;
  expect((await h.http.delete(`/api/projects/${projectId}`).set(inOrg(org.admin, org.id))).status).toBe(200);
  expect((await h.http.post('/api/projects').set(inOrg(org.admin, org.id)).send({ name: 'Again' })).status).toBe(201);
});

it('templates past 100 of its own answer 409 Template.LimitReached, private or public; deleting one frees a place', async () => {
  const org = await anOrganization(h, undefined, 'Template farm');
  const post = (name: string, isPublic = false) =>
    h.http.post('/api/project-templates').set(inOrg(org.admin, org.id)).send({ name, isPublic });
  for (let i = 0; i < MAX_TEMPLATES_PER_ORGANIZATION - 3; i += 1) expect((await post(`Own ${i}`)).status).toBe(201);
  const race = await Promise.all(Array.from({ length: 6 }, (_, i) => post(`Race ${i}`, i % 2 === 0)));
  expect(race.filter((r) => r.status === 201)).toHaveLength(3);
  for (const refused of race.filter((r) => r.status !== 201)) {
    expectEnvelopeError(refused, 409, 'Template.LimitReached');
  }
  expect(await rows(projectTemplates, org.id)).toBe(MAX_TEMPLATES_PER_ORGANIZATION);

  const own = race.find((r) => r.status === 201)?.body.data;
  expect((await h.http.delete(`/api/project-templates/${own.id}`).set(inOrg(org.admin, org.id))).status).toBe(200);
  expect((await post('After a delete')).status).toBe(201);
}, 60_000);
