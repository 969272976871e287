// Regression for the review's api-key-flood finding: one signed-in account (a console session consumes no daily
// quota) could create any number of keys, and the list answered them all, reading each key's counters. An account
// now holds at most MAX_API_KEYS_PER_ACCOUNT keys, counted under a lock so concurrent creates cannot pass it together.
import { count, eq } from 'drizzle-orm';
import { apiKeys } from '../../shared/db/schema/index.js';
import { createApiKey, MAX_API_KEYS_PER_ACCOUNT } from '../../shared/identity/api-keys.js';
import { seedSystemTemplates } from '../../shared/organizations/project-templates.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';
import { anOrganization, expectEnvelopeError, inOrg } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const keysHeld = async (accountId: string) =>
  (await h.ctx.db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.accountId, accountId)))[0]?.n;

/** Gives the account keys (through the service) until it holds `total`; createUser's fixture made the first. */
async function fillTo(user: TestUser, total: number) {
  const missing = total - ((await keysHeld(user.accountId)) ?? 0);
  for (let i = 0; i < missing; i++) await createApiKey(h.ctx, user.accountId, { name: `filler ${i}` });
  expect(await keysHeld(user.accountId)).toBe(total);
}

const create = (user: TestUser, name: string) =>
  h.http.post('/api/v1/api-keys').set(bearer(user.session)).send({ name });

function expectLimitReached(res: { status: number; headers: Record<string, string>; text: string }) {
  expect(res.status).toBe(409);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(JSON.parse(res.text)).toMatchObject({ title: 'ApiKey.LimitReached', status: 409 });
}

it('the limit is 100 keys per account', () => {
  expect(MAX_API_KEYS_PER_ACCOUNT).toBe(100);
});

it('answers 409 ApiKey.LimitReached at 100 keys, disabled ones counted; deleting one makes room', async () => {
  const user = await createUser(h, { dailyQuota: 100 });
  // Through the API with the console session, as the review did: 98 more keys next to the fixture's.
  for (let batch = 0; batch < 98 / 14; batch++) {
    const made = await Promise.all(Array.from({ length: 14 }, (_, i) => create(user, `k${batch}-${i}`)));
    for (const r of made) expect(r.status).toBe(200);
  }
  const disabled = await create(user, 'to disable');
  expect(disabled.status).toBe(200);
  expect((await h.http.post(`/api/v1/api-keys/${disabled.body.id}/disable`).set(bearer(user.session))).status).toBe(
    200,
  );
  expect(await keysHeld(user.accountId)).toBe(100);

  expectLimitReached(await create(user, 'one too many'));
  expect(await keysHeld(user.accountId)).toBe(100);

  const list = await h.http.get('/api/v1/api-keys').set(bearer(user.session));
  expect(list.status).toBe(200);
  expect(list.body).toHaveLength(100);
  expect(list.body.find((k: { id: string }) => k.id === disabled.body.id)).toMatchObject({ status: 'disabled' });

  expect((await h.http.delete(`/api/v1/api-keys/${disabled.body.id}`).set(bearer(user.session))).status).toBe(200);
  expect((await create(user, 'in its place')).status).toBe(200);
  expectLimitReached(await create(user, 'again one too many'));
}, 60_000);

it('two concurrent creates at 99 keys make exactly one', async () => {
  for (let round = 0; round < 5; round++) {
    const user = await createUser(h);
    await fillTo(user, 99);
    const answers = await Promise.all([create(user, 'a'), create(user, 'b')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expectLimitReached(answers.find((r) => r.status === 409) as (typeof answers)[number]);
    expect(await keysHeld(user.accountId)).toBe(100);
  }
}, 60_000);

it('twenty concurrent creates with five places left make exactly five', async () => {
  const user = await createUser(h);
  await fillTo(user, 95);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => create(user, `race ${i}`)));
  const statuses = answers.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(5);
  expect(statuses.filter((s) => s === 409)).toHaveLength(15);
  expect(await keysHeld(user.accountId)).toBe(100);
}, 60_000);

it('a project from a template whose key would pass the limit answers 409 and creates nothing', async () => {
  await seedSystemTemplates(h.ctx.db);
  const org = await anOrganization(h);
  await fillTo(org.admin, 100);
  const templates = await h.http.get('/api/project-templates').set(inOrg(org.admin, org.id));
  const starter = templates.body.data.find((t: { name: string }) => t.name === 'Starter');
  const res = await h.http
    .post('/api/projects/from-template')
    .set(inOrg(org.admin, org.id))
    .send({ templateId: starter.id, name: 'Over the limit' });
  expectEnvelopeError(res, 409, 'ApiKey.LimitReached');
  expect((await h.http.get('/api/projects').set(inOrg(org.admin, org.id))).body.total).toBe(0);
  const after = await h.http.get('/api/project-templates').set(inOrg(org.admin, org.id));
  expect(after.body.data.find((t: { id: string }) => t.id === starter.id).usageCount).toBe(starter.usageCount);
});
