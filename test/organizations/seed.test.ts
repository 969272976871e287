import { runSeed } from '../../scripts/seed/seed-steps.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, signInAdmin } from '../support/identity.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

it('seeds, idempotently, the built-in templates and a default organization with the Admin as its Admin', async () => {
  // Another test file of this jest worker may have seeded this database already, so the first run here may find
  // everything in place; the second run must find it in any case.
  const first = await runSeed(h.ctx);
  const second = await runSeed(h.ctx);
  expect(first.join('\n')).toMatch(
    /organizations: .*(created "Default organization"|already belongs to an organization)/,
  );
  expect(second.join('\n')).toMatch(
    /organizations: 0 new built-in templates; the Admin already belongs to an organization/,
  );

  const admin = await signInAdmin(h);
  const orgs = await h.http.get('/api/organizations').set(bearer(admin.token));
  expect(orgs.body.data).toEqual([
    { id: expect.any(String), name: 'Default organization', role: 'Admin', createdAt: expect.any(String) },
  ]);
  const templates = await h.http.get('/api/project-templates?isPublic=true').set(bearer(admin.token));
  const system = templates.body.data.filter((t: { isSystem: boolean }) => t.isSystem);
  expect(system.map((t: { category: string }) => t.category)).toEqual([
    'Starter',
    'Professional',
    'Enterprise',
    'Custom',
  ]);

  // The Admin can work in the default organization right away.
  const project = await h.http.post('/api/projects').set(bearer(admin.token)).send({ name: 'First project' });
  expect(project.status).toBe(201);
  expect(project.body.data.organizationId).toBe(orgs.body.data[0].id);

  // The README's walk-through: the seeded Admin (a platform Admin) recharges its only organization, issues a code.
  const recharged = await h.http
    .post('/api/organization/wallet/recharge')
    .set(bearer(admin.token))
    .send({ amount: 10, description: 'first credit' });
  expect(recharged.status).toBe(201);
  const wallet = await h.http.get('/api/organization/wallet').set(bearer(admin.token));
  expect(wallet.body.data.organizationId).toBe(orgs.body.data[0].id);
  const issued = await h.http
    .post('/api/v1/admin/top-up-codes')
    .set(bearer(admin.token))
    .send({ amount: 25, count: 1 });
  expect(issued.status).toBe(201);
  expect(issued.body.codes[0].code).toMatch(/^OTC-/);
});
