// Creating a project key while the project is being deleted: either the key is refused (404, the project is gone)
// or it is made and then deleted with its project. Before, a delete that committed between the key's access check
// and its insert made the insert fail on its foreign key: a 500 to the caller.
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { anOrganization, aProject, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness();
  org = await anOrganization(h);
});
afterAll(() => h.close());

it('answers 200 or 404, never 500, to a key created while its project is deleted, and leaves no key behind', async () => {
  const statuses = new Set<number>();
  for (let round = 0; round < 20; round++) {
    const project = await aProject(h, org, `Doomed ${round}`);
    const [created, deleted] = await Promise.all([
      h.http
        .post('/api/v1/api-keys')
        .set(bearer(org.admin.session))
        .send({ name: `key ${round}`, projectId: project.id }),
      h.http.delete(`/api/projects/${project.id}`).set(inOrg(org.admin, org.id)),
    ]);
    statuses.add(created.status);
    expect(deleted.status).toBe(200);
    expect([200, 404]).toContain(created.status);
  }
  const keys = await h.http.get('/api/v1/api-keys').set(bearer(org.admin.session));
  expect(keys.body.filter((k: { projectId?: string }) => k.projectId)).toEqual([]);
  expect([...statuses].every((s) => s === 200 || s === 404)).toBe(true);
}, 120_000);
