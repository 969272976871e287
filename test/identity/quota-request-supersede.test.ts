// A new quota request supersedes the pending one under a new id, so an Admin's approval of the request they were
// shown never grants a value the account put in its place afterwards. Regression of the security review's proof
// (review2): the pending row was updated in place (same id), and approving that id granted the swapped value.
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, signInAdmin } from '../support/identity.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const ask = (session: string, requestedQuota: number) =>
  h.http
    .post('/api/v1/api-keys/quota-requests')
    .set(bearer(session))
    .send({ requestedQuota, reason: 'a little more for my CI' });

describe('a quota request replaced while the Admin looks', () => {
  it('gets a new id; approving the id the Admin saw is 404 and grants nothing', async () => {
    const user = await createUser(h, { dailyQuota: 1000 });
    const admin = await signInAdmin(h);
    const asked = await ask(user.session, 2000);
    expect(asked.status).toBe(200);

    const list = await h.http.get('/api/v1/admin/quota-requests?status=pending').set(bearer(admin.token));
    const seen = (list.body as { id: string; requestedQuota: number }[]).find((r) => r.id === asked.body.id);
    expect(seen?.requestedQuota).toBe(2000);

    const swapped = await ask(user.session, 1_000_000);
    expect(swapped.status).toBe(200);
    expect(swapped.body.id).not.toBe(asked.body.id);

    const approved = await h.http
      .post(`/api/v1/admin/quota-requests/${asked.body.id}/approve`)
      .set(bearer(admin.token));
    expect(approved.status).toBe(404);
    expect(JSON.parse(approved.text).title).toBe('QuotaRequest.NotFound');
    const usage = await h.http.get('/api/v1/api-keys/usage').set(bearer(user.session));
    expect(usage.body.dailyQuota).toBe(1000);

    // The replacement is the one pending request, and deciding it is deciding what is shown.
    const mine = await h.http.get('/api/v1/api-keys/quota-requests/mine').set(bearer(user.session));
    expect(mine.body.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      [swapped.body.id, 'pending'],
    ]);
    const rejected = await h.http
      .post(`/api/v1/admin/quota-requests/${swapped.body.id}/reject`)
      .set(bearer(admin.token));
    expect(rejected.status).toBe(200);
    expect((await h.http.get('/api/v1/api-keys/usage').set(bearer(user.session))).body.dailyQuota).toBe(1000);
  });

  it('leaves exactly one pending request when many arrive at once, and the last one survives', async () => {
    const user = await createUser(h);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(user.session, 3000 + i)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((r) => r.body.id)).size).toBe(8);
    const mine = await h.http.get('/api/v1/api-keys/quota-requests/mine').set(bearer(user.session));
    const pending = mine.body.filter((r: { status: string }) => r.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(answers.map((r) => r.body.id)).toContain(pending[0].id);
  });

  it('a decision racing a replacement either decides the old request or finds it gone, never the new value', async () => {
    const admin = await signInAdmin(h);
    for (let round = 0; round < 5; round++) {
      const user = await createUser(h, { dailyQuota: 1000 });
      const asked = await ask(user.session, 2000);
      const [approved, swapped] = await Promise.all([
        h.http.post(`/api/v1/admin/quota-requests/${asked.body.id}/approve`).set(bearer(admin.token)),
        ask(user.session, 1_000_000),
      ]);
      expect([200, 404]).toContain(approved.status);
      expect(swapped.status).toBe(200);
      const usage = await h.http.get('/api/v1/api-keys/usage').set(bearer(user.session));
      expect(usage.body.dailyQuota).toBe(approved.status === 200 ? 2000 : 1000);
    }
  });
});
