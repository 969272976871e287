// A project membership never outlives its holder's membership of the organization: an Admin adding someone to a
// project while another Admin removes them from the organization must not leave a project role behind (which came
// back, Owner included, the day they were invited again).
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { aMember, anInviteToken, anOrganization, aProject, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
let project: { id: string };
beforeAll(async () => {
  h = await createHarness();
  org = await anOrganization(h);
  project = await aProject(h, org);
});
afterAll(() => h.close());

const projectMemberIds = async () => {
  const res = await h.http.get(`/api/projects/${project.id}/members`).set(inOrg(org.admin, org.id));
  return (res.body.data as { userId: string }[]).map((m) => m.userId);
};

it('adding a member to a project while they are removed from the organization leaves no project role behind', async () => {
  const secondAdmin = await aMember(h, org, 'Admin');
  for (let round = 0; round < 12; round++) {
    const member = await aMember(h, org, 'Member');
    const [added, removed] = await Promise.all([
      h.http
        .post(`/api/projects/${project.id}/members`)
        .set(inOrg(org.admin, org.id))
        .send({ userId: member.accountId, role: 'Owner' }),
      h.http.delete(`/api/organization/members/${member.accountId}`).set(inOrg(secondAdmin, org.id)),
    ]);
    expect(removed.status).toBe(200);
    // Either the removal came first (400: not in the organization) or it removed the new project role too.
    expect([201, 400]).toContain(added.status);
    expect(await projectMemberIds()).not.toContain(member.accountId);

    // Invited again, they join as a plain member with no project role from before.
    const invite = await anInviteToken(h, org);
    const rejoined = await h.http
      .post(`/api/organization/invites/${invite.token}/accept`)
      .set(bearer(member.session))
      .send({});
    expect(rejoined.status).toBe(201);
    expect(await projectMemberIds()).not.toContain(member.accountId);
  }
});
