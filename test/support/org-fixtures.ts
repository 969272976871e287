// Small factories for organization tests, all through the public API: an organization with its Admin, members
// joined by invite, projects.
import type { Harness } from './harness.js';
import { bearer, createUser, type TestUser } from './identity.js';

export type TestOrg = { id: string; admin: TestUser };

export const inOrg = (user: { session: string }, orgId: string) => ({
  ...bearer(user.session),
  'x-organization-id': orgId,
});

export async function anOrganization(h: Harness, admin?: TestUser, name = 'Acme'): Promise<TestOrg> {
  const owner = admin ?? (await createUser(h, { name: 'Org Admin' }));
  const res = await h.http.post('/api/organizations').set(bearer(owner.session)).send({ name });
  expect(res.status).toBe(201);
  return { id: res.body.data.id, admin: owner };
}

export async function anInviteToken(
  h: Harness,
  org: TestOrg,
  body: Record<string, unknown> = {},
): Promise<{ id: string; token: string; inviteUrl: string }> {
  const res = await h.http.post('/api/organization/invite-tokens').set(inOrg(org.admin, org.id)).send(body);
  expect(res.status).toBe(201);
  return res.body.data;
}

/** A new account that joined the organization by accepting an invite with its session. */
export async function aMember(h: Harness, org: TestOrg, role: 'Admin' | 'Member' = 'Member'): Promise<TestUser> {
  const user = await createUser(h, { name: `${role} of ${org.id.slice(0, 8)}` });
  const invite = await anInviteToken(h, org, { role });
  const res = await h.http.post(`/api/organization/invites/${invite.token}/accept`).set(bearer(user.session)).send({});
  expect(res.status).toBe(201);
  return user;
}

/** New accounts, one per entry, joined to the organization as Members through one invite token they all accept. */
export async function membersJoined(
  h: Harness,
  org: TestOrg,
  people: { name: string; email?: string }[],
): Promise<TestUser[]> {
  const invite = await anInviteToken(h, org, { maxUsageCount: people.length });
  const joined: TestUser[] = [];
  for (const person of people) {
    const user = await createUser(h, person);
    const res = await h.http
      .post(`/api/organization/invites/${invite.token}/accept`)
      .set(bearer(user.session))
      .send({});
    expect(res.status).toBe(201);
    joined.push(user);
  }
  return joined;
}

export async function aProject(h: Harness, org: TestOrg, name = 'Project'): Promise<{ id: string }> {
  const res = await h.http.post('/api/projects').set(inOrg(org.admin, org.id)).send({ name });
  expect(res.status).toBe(201);
  return res.body.data;
}

/** The error envelope of the organization family. */
export function expectEnvelopeError(res: { status: number; body: unknown }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ data: null, code: status, error: { code, message: expect.any(String) } });
}
