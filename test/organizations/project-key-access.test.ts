// A project key lives only as long as its holder may use the project (an organization Admin or a project member):
// leaving the project, or losing the Admin role while outside it, deletes the key at once, cached or not. Found by a
// security review: the key used to keep spending the organization's wallet after its holder lost access.

import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { bearer } from '../support/identity.js';
import { aMember, anOrganization, aProject, inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w.close());

const message = (key: string) =>
  w.h.http
    .post('/v1/messages')
    .set(bearer(key))
    .send({ model: 'claude-sonnet-5', max_tokens: 32, messages: [{ role: 'user', content: 'hello' }] });

async function keyFor(session: string, projectId: string): Promise<{ id: string; token: string }> {
  const created = await w.h.http.post('/api/v1/api-keys').set(bearer(session)).send({ name: 'key', projectId });
  expect(created.status).toBe(200);
  return { id: created.body.id as string, token: created.body.token as string };
}

const addToProject = async (projectId: string, userId: string, role: 'Owner' | 'Member') =>
  expect(
    (await w.h.http.post(`/api/projects/${projectId}/members`).set(inOrg(w.org.admin, w.org.id)).send({ userId, role }))
      .status,
  ).toBe(201);

const removeFromProject = async (projectId: string, userId: string) =>
  expect(
    (await w.h.http.delete(`/api/projects/${projectId}/members/${userId}`).set(inOrg(w.org.admin, w.org.id))).status,
  ).toBe(200);

const setRole = async (userId: string, role: 'Admin' | 'Member') =>
  expect(
    (await w.h.http.put(`/api/organization/members/${userId}/role`).set(inOrg(w.org.admin, w.org.id)).send({ role }))
      .status,
  ).toBe(200);

async function auditAfter(action: string, targetId: string) {
  const log = await w.h.http.get('/api/organization/audit-log').query({ action }).set(inOrg(w.org.admin, w.org.id));
  return log.body.data.find((e: { target: { id: string } }) => e.target.id === targetId)?.after;
}

it('a member removed from a project loses the key bound to it at once, and keeps the keys of other projects', async () => {
  const member = await aMember(w.h, w.org, 'Member');
  const other = await aProject(w.h, w.org, 'Other');
  await addToProject(w.projectId, member.accountId, 'Member');
  await addToProject(other.id, member.accountId, 'Member');
  const key = await keyFor(member.session, w.projectId);
  const otherKey = await keyFor(member.session, other.id);
  expect((await message(key.token)).status).toBe(200); // verified once, so its credential is cached

  await removeFromProject(w.projectId, member.accountId);

  expect((await message(key.token)).status).toBe(401);
  expect((await w.h.http.get('/v1/videos').set(bearer(key.token))).status).toBe(401);
  expect((await message(otherKey.token)).status).toBe(200);
  const keys = await w.h.http.get('/api/v1/api-keys').set(bearer(member.session));
  const ids = keys.body.map((k: { id: string }) => k.id);
  expect(ids).toContain(otherKey.id);
  expect(ids).not.toContain(key.id);
  expect(await auditAfter('project_member.remove', `${w.projectId}/${member.accountId}`)).toEqual({
    deletedApiKeys: [key.id],
  });
});

it('an Admin demoted to Member loses the keys of projects they are not a member of, and keeps the others', async () => {
  const admin = await aMember(w.h, w.org, 'Admin');
  const mine = await aProject(w.h, w.org, 'Mine');
  await addToProject(mine.id, admin.accountId, 'Owner');
  const outside = await keyFor(admin.session, w.projectId);
  const inside = await keyFor(admin.session, mine.id);
  expect((await message(outside.token)).status).toBe(200);

  await setRole(admin.accountId, 'Member');

  expect((await message(outside.token)).status).toBe(401);
  expect((await message(inside.token)).status).toBe(200);
  expect(await auditAfter('member.role.set', admin.accountId)).toEqual({
    role: 'Member',
    deletedApiKeys: [outside.id],
  });
});

it('an organization Admin removed from a project keeps the key: Admins may use every project of theirs', async () => {
  const admin = await aMember(w.h, w.org, 'Admin');
  await addToProject(w.projectId, admin.accountId, 'Member');
  const key = await keyFor(admin.session, w.projectId);

  await removeFromProject(w.projectId, admin.accountId);
  await setRole(admin.accountId, 'Admin'); // a role set that changes nothing deletes nothing either

  expect((await message(key.token)).status).toBe(200);
});

it('a key created while its holder is being removed from the project never outlives the removal', async () => {
  for (let round = 0; round < 8; round++) {
    const member = await aMember(w.h, w.org, 'Member');
    await addToProject(w.projectId, member.accountId, 'Member');
    const [created] = await Promise.all([
      w.h.http.post('/api/v1/api-keys').set(bearer(member.session)).send({ name: 'racing', projectId: w.projectId }),
      removeFromProject(w.projectId, member.accountId),
    ]);
    // Either the removal committed first (404) or it waited for the insert and deleted the new key with the others.
    expect([200, 404]).toContain(created.status);
    if (created.status === 200) expect((await message(created.body.token)).status).toBe(401);
    const keys = await w.h.http.get('/api/v1/api-keys').set(bearer(member.session));
    expect(keys.body.filter((k: { projectId?: string }) => k.projectId === w.projectId)).toEqual([]);
  }
});

it('a key served from the process copy (its hash remembered) is refused on the gateway as soon as it is disabled or deleted', async () => {
  const member = await aMember(w.h, w.org, 'Member');
  await addToProject(w.projectId, member.accountId, 'Member');
  const key = await keyFor(member.session, w.projectId);
  // The first request verifies it; the second is served from the copy, found by the token itself.
  expect((await message(key.token)).status).toBe(200);
  expect((await message(key.token)).status).toBe(200);

  expect((await w.h.http.post(`/api/v1/api-keys/${key.id}/disable`).set(bearer(member.session))).status).toBe(200);
  expect((await message(key.token)).status).toBe(401);
  expect((await w.h.http.post(`/api/v1/api-keys/${key.id}/enable`).set(bearer(member.session))).status).toBe(200);
  expect((await message(key.token)).status).toBe(200);
  expect((await message(key.token)).status).toBe(200);

  expect((await w.h.http.delete(`/api/v1/api-keys/${key.id}`).set(bearer(member.session))).status).toBe(200);
  expect((await message(key.token)).status).toBe(401);
  expect((await message(key.token)).status).toBe(401);
});

// A member of the organization sees the project (GET /api/projects) but may not make its keys until added to it: the
// 404 says so and what to do (a new user's trial got "No such project." about a project the console had just shown).
// A stranger to the organization still gets the plain answer, which reveals nothing.
it('tells an organization member outside the project why it cannot make the project a key, and a stranger nothing', async () => {
  const keyAsked = (session: string) =>
    w.h.http.post('/api/v1/api-keys').set(bearer(session)).send({ name: 'key', projectId: w.projectId });
  const member = await aMember(w.h, w.org, 'Member');
  const refused = await keyAsked(member.session);
  expect(refused.status).toBe(404);
  const told = JSON.parse(refused.text) as { title: string; detail: string };
  expect(told.title).toBe('Project.NotFound');
  expect(told.detail).toMatch(/you are not a member of this project.*Ask its Owner or an Admin to add you/s);

  const stranger = (await anOrganization(w.h)).admin;
  const plain = await keyAsked(stranger.session);
  expect(plain.status).toBe(404);
  expect(JSON.parse(plain.text)).toMatchObject({ title: 'Project.NotFound', detail: 'No such project.' });
});
