// A project membership never outlives its holder's membership of the organization: an Admin adding someone to a
// project while another Admin removes them from the organization must not leave a project role behind (which came
// back, Owner included, the day they were invited again).
import { systemActor } from '../../shared/audit/audit-log.js';
import type { Database } from '../../shared/db/client.js';
import { removeMember } from '../../shared/organizations/members.js';
import { putProjectMember } from '../../shared/organizations/project-members.js';
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

it('answers the role it gave even when a removal from the organization commits right after it', async () => {
  const member = await aMember(h, org, 'Member');
  // The database as the service sees it, with the removal that waited on the membership's lock committing the moment
  // the add commits, before the service reads anything more (the order a busy machine produced once in CI: 500).
  const removedRightAfter = new Proxy(h.ctx.db, {
    get(target, property) {
      if (property === 'transaction') {
        return async (...args: Parameters<Database['transaction']>) => {
          const result = await target.transaction(...args);
          await removeMember(h.ctx, org.id, member.accountId, systemActor());
          return result;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const { member: given, created } = await putProjectMember(
    removedRightAfter,
    { id: project.id, organizationId: org.id },
    member.accountId,
    'Owner',
    systemActor(),
  );
  expect(created).toBe(true);
  expect(given).toMatchObject({ userId: member.accountId, role: 'Owner' });
  expect(await projectMemberIds()).not.toContain(member.accountId);
});
