// Every key bound to a project, for those who manage it (an organization Admin, the project's Owner): listed with its
// holder and never its token, and revoked so that it stops working on the gateway at once. A plain Member gets 403;
// a key of another project, organization or none is 404, as is anything outside the caller's organizations.

import { type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';
import { aMember, anOrganization, aProject, expectEnvelopeError, inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
let holder: TestUser;
let plain: TestUser;
let owner: TestUser;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
  [holder, plain, owner] = [await aMember(w.h, w.org), await aMember(w.h, w.org), await aMember(w.h, w.org)];
  await addToProject(w.projectId, holder, 'Member');
  await addToProject(w.projectId, plain, 'Member');
  await addToProject(w.projectId, owner, 'Owner');
});
afterAll(() => w.close());

type Listed = { id: string; name: string; prefix: string; status: string; owner: { id: string; email: string } };

async function addToProject(projectId: string, user: TestUser, role: 'Owner' | 'Member') {
  const res = await w.h.http
    .post(`/api/projects/${projectId}/members`)
    .set(inOrg(w.org.admin, w.org.id))
    .send({ userId: user.accountId, role });
  expect(res.status).toBe(201);
}

async function keyFor(user: { session: string }, projectId?: string, name = 'laptop') {
  const res = await w.h.http.post('/api/v1/api-keys').set(bearer(user.session)).send({ name, projectId });
  expect(res.status).toBe(200);
  return { id: res.body.id as string, token: res.body.token as string };
}

const message = (token: string) =>
  w.h.http
    .post('/v1/messages')
    .set(bearer(token))
    .send({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });

const list = (user: { session: string }, projectId = w.projectId, q: Record<string, unknown> = {}) =>
  w.h.http.get(`/api/projects/${projectId}/api-keys`).query(q).set(bearer(user.session));

const revoke = (user: { session: string }, keyId: string, projectId = w.projectId) =>
  w.h.http.delete(`/api/projects/${projectId}/api-keys/${keyId}`).set(bearer(user.session));

it("lists every member's key of the project for an organization Admin, with its holder and never its token", async () => {
  const key = await keyFor(holder, w.projectId, "holder's laptop");
  expect((await message(key.token)).status).toBe(200);
  await writeLedgers(w.h);

  const res = await list(w.org.admin);
  expect(res.status).toBe(200);
  const listed = (res.body.data as Listed[]).find((k) => k.id === key.id);
  expect(listed).toEqual({
    id: key.id,
    name: "holder's laptop",
    prefix: key.token.slice(0, 12),
    status: 'enabled',
    createdAt: expect.any(String),
    lastUsedAt: expect.any(String),
    usage: { today: 0, total: 0 },
    // Its one gateway call: the catalog's `usage` does not count it.
    gatewayUsage: { today: 1, total: 1, spentToday: expect.any(Number), spentTotal: expect.any(Number) },
    owner: { id: holder.accountId, name: expect.any(String), email: holder.email },
  });
  expect(res.body).toMatchObject({ code: 200, error: null, page: 1, size: 20, total: res.body.data.length });
  // The organization Admin's own key of the world is there too; the token and its hash are nowhere.
  expect(res.body.data.map((k: Listed) => k.owner.id)).toContain(w.org.admin.accountId);
  expect(res.text).not.toContain(key.token);
  expect(res.text).not.toContain(w.key);
  expect(res.text).not.toMatch(/token|hash/i);
});

it('revokes another member’s key for the Admin: the gateway refuses it at once, and the audit log names both', async () => {
  const key = await keyFor(holder, w.projectId);
  // Verified once, then served from the process copy: revoking must reach that copy too.
  expect((await message(key.token)).status).toBe(200);
  expect((await message(key.token)).status).toBe(200);

  const res = await revoke(w.org.admin, key.id);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ data: { message: expect.any(String), id: key.id }, code: 200, error: null });

  expect((await message(key.token)).status).toBe(401);
  expect((await w.h.http.get('/v1/videos').set(bearer(key.token))).status).toBe(401);
  expect((await list(w.org.admin)).body.data.map((k: Listed) => k.id)).not.toContain(key.id);
  const own = await w.h.http.get('/api/v1/api-keys').set(bearer(holder.session));
  expect(own.body.map((k: { id: string }) => k.id)).not.toContain(key.id);
  expectEnvelopeError(await revoke(w.org.admin, key.id), 404, 'ApiKey.NotFound');

  const log = await w.h.http
    .get('/api/organization/audit-log')
    .query({ action: 'api_key.delete' })
    .set(inOrg(w.org.admin, w.org.id));
  const entry = log.body.data.find((e: { target: { id: string } }) => e.target.id === key.id);
  expect(entry).toMatchObject({
    organizationId: w.org.id,
    actor: { accountId: w.org.admin.accountId },
    before: { accountId: holder.accountId, projectId: w.projectId, status: 'enabled' },
  });
});

it("lets the project's Owner, an organization Member, list and revoke an Admin's key of the project", async () => {
  const key = await keyFor(w.org.admin, w.projectId, 'admin key');
  const listed = await list(owner);
  expect(listed.status).toBe(200);
  expect(listed.body.data.map((k: Listed) => k.id)).toContain(key.id);
  expect((await revoke(owner, key.id)).status).toBe(200);
  expect((await message(key.token)).status).toBe(401);
});

it('answers 403 Project.Forbidden to a plain Member of the project, and the key keeps working', async () => {
  const key = await keyFor(holder, w.projectId);
  expectEnvelopeError(await list(plain), 403, 'Project.Forbidden');
  expectEnvelopeError(await revoke(plain, key.id), 403, 'Project.Forbidden');
  expectEnvelopeError(await revoke(holder, key.id), 403, 'Project.Forbidden');
  expect((await message(key.token)).status).toBe(200);
});

it('answers 404 for a key of another project, of another organization, of no project, or of no one', async () => {
  const other = await aProject(w.h, w.org, 'Elsewhere');
  await addToProject(other.id, holder, 'Member');
  const otherProjectKey = await keyFor(holder, other.id);
  const catalogKey = await keyFor(holder);
  const stranger = await anOrganization(w.h, await createUser(w.h, { name: 'Stranger' }), 'Elsewhere Inc');
  const strangerProject = await aProject(w.h, stranger, 'Theirs');
  const strangerKey = await keyFor(stranger.admin, strangerProject.id);

  for (const id of [otherProjectKey.id, catalogKey.id, strangerKey.id, crypto.randomUUID(), 'not-a-key']) {
    expectEnvelopeError(await revoke(w.org.admin, id), 404, 'ApiKey.NotFound');
  }
  // Another organization's project is not there for this Admin, and this project is not there for theirs.
  expectEnvelopeError(await list(w.org.admin, strangerProject.id), 404, 'Project.NotFound');
  expectEnvelopeError(await revoke(w.org.admin, strangerKey.id, strangerProject.id), 404, 'Project.NotFound');
  expectEnvelopeError(await list(stranger.admin), 404, 'Project.NotFound');
  expectEnvelopeError(await revoke(stranger.admin, otherProjectKey.id, other.id), 404, 'Project.NotFound');

  expect((await message(otherProjectKey.token)).status).toBe(200);
  expect((await message(strangerKey.token)).status).toBe(402); // alive: only its empty wallet refuses it
  expect((await w.h.http.get('/api/v1/api-keys').set(bearer(catalogKey.token))).status).toBe(200);
});

it('pages the keys newest first, and refuses a page size out of range', async () => {
  const paged = await aProject(w.h, w.org, 'Paged');
  const made = [];
  for (const name of ['first', 'second', 'third']) made.push(await keyFor(w.org.admin, paged.id, name));

  const first = await list(w.org.admin, paged.id, { size: 2 });
  expect(first.body).toMatchObject({ total: 3, page: 1, size: 2 });
  expect(first.body.data.map((k: Listed) => k.name)).toEqual(['third', 'second']);
  const second = await list(w.org.admin, paged.id, { size: 2, page: 2 });
  expect(second.body.data.map((k: Listed) => k.name)).toEqual(['first']);
  expectEnvelopeError(await list(w.org.admin, paged.id, { size: 101 }), 400, 'Project.InvalidQuery');
});
