import { type Actors, createActors, createDraft, publishItem } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, type TestUser } from '../support/identity.js';

let h: Harness;
let a: Actors;

const problem = (res: { text: string }) => JSON.parse(res.text);
const key = (user: TestUser) => bearer(user.apiKey);

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
});
afterAll(async () => h.close());

describe('POST /api/v1/{type}/{slug}/report', () => {
  it('opens one report per account and item; a repeat answers the open one', async () => {
    const item = await publishItem(h, a, 'mcp');
    const first = await h.http
      .post(`/api/v1/mcp/${item.slug}/report`)
      .set(key(a.outsider))
      .send({ reason: 'Broken link', detail: 'The source URL is 404.' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ id: expect.any(String), status: 'open' });
    expect(first.headers['x-ratelimit-remaining']).toBeDefined();
    const repeat = await h.http.post(`/api/v1/mcp/${item.slug}/report`).set(key(a.outsider)).send({ reason: 'Again' });
    expect(repeat.body).toEqual(first.body);
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () =>
        h.http.post(`/api/v1/mcp/${item.slug}/report`).set(key(a.publisher)).send({ reason: 'Spam' }),
      ),
    );
    expect(new Set(concurrent.map((r) => r.body.id)).size).toBe(1);
    expect(concurrent[0]!.body.id).not.toBe(first.body.id);
  });

  it('answers 401 without a key, 404 for an unpublished or unknown item, 400 Report.Invalid for a bad body', async () => {
    const item = await publishItem(h, a, 'agent');
    expect((await h.http.post(`/api/v1/agent/${item.slug}/report`).send({ reason: 'x' })).status).toBe(401);
    const draft = await createDraft(h, a, 'agent');
    for (const slug of [draft.slug, 'no-such-agent']) {
      const res = await h.http.post(`/api/v1/agent/${slug}/report`).set(key(a.outsider)).send({ reason: 'x' });
      expect(res.status).toBe(404);
      expect(problem(res).title).toBe('Agent.NotFound');
    }
    for (const payload of [
      {},
      { reason: '' },
      { reason: 'r'.repeat(201) },
      { reason: 'x', detail: 'd'.repeat(4001) },
    ]) {
      const res = await h.http.post(`/api/v1/agent/${item.slug}/report`).set(key(a.outsider)).send(payload);
      expect(res.status).toBe(400);
      expect(problem(res).title).toBe('Report.Invalid');
    }
  });

  it('answers 429 ApiKey.QuotaExceeded once the daily quota is used', async () => {
    const item = await publishItem(h, a, 'soul');
    const limited = await createUser(h, { dailyQuota: 1 });
    await h.http.post(`/api/v1/soul/${item.slug}/report`).set(key(limited)).send({ reason: 'x' }).expect(200);
    const res = await h.http.post(`/api/v1/soul/${item.slug}/report`).set(key(limited)).send({ reason: 'x' });
    expect(res.status).toBe(429);
    expect(problem(res).title).toBe('ApiKey.QuotaExceeded');
  });
});

describe('moderation of reports', () => {
  it('lists open reports with their item and resolves one; a new report may then be opened', async () => {
    const item = await publishItem(h, a, 'skill');
    const reporter = await createUser(h);
    const opened = await h.http
      .post(`/api/v1/skill/${item.slug}/report`)
      .set(key(reporter))
      .send({ reason: 'Runs shell commands', detail: 'See install.sh' });
    const open = await h.http
      .get('/api/v1/moderation/reports?status=open&pageSize=100')
      .set(bearer(a.moderator.session));
    expect(open.status).toBe(200);
    expect(open.body.items.find((r: { id: string }) => r.id === opened.body.id)).toMatchObject({
      status: 'open',
      reason: 'Runs shell commands',
      detail: 'See install.sh',
      reporterId: reporter.accountId,
      itemType: 'skill',
      itemSlug: item.slug,
    });
    const resolved = await h.http
      .post(`/api/v1/moderation/reports/${opened.body.id}/resolve`)
      .set(bearer(a.moderator.session))
      .send({ resolution: 'Documented in the readme.' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      id: opened.body.id,
      status: 'resolved',
      resolution: 'Documented in the readme.',
      resolvedBy: a.moderator.accountId,
      resolvedAt: expect.any(String),
    });
    const twice = await h.http
      .post(`/api/v1/moderation/reports/${opened.body.id}/resolve`)
      .set(bearer(a.moderator.session))
      .send({});
    expect(twice.status).toBe(409);
    expect(problem(twice).title).toBe('Report.NotOpen');
    const stillOpen = await h.http
      .get('/api/v1/moderation/reports?status=open&pageSize=100')
      .set(bearer(a.moderator.session));
    expect(stillOpen.body.items.map((r: { id: string }) => r.id)).not.toContain(opened.body.id);
    const reopened = await h.http
      .post(`/api/v1/skill/${item.slug}/report`)
      .set(key(reporter))
      .send({ reason: 'Again' });
    expect(reopened.body.id).not.toBe(opened.body.id);
    const unknown = await h.http
      .post('/api/v1/moderation/reports/00000000-0000-4000-8000-000000000000/resolve')
      .set(bearer(a.moderator.session))
      .send({});
    expect(problem(unknown).title).toBe('Report.NotFound');
    const badStatus = await h.http.get('/api/v1/moderation/reports?status=closed').set(bearer(a.moderator.session));
    expect(problem(badStatus).title).toBe('Moderation.InvalidQuery');
  });
});

describe('PUT /api/v1/{type}/{slug}/rating', () => {
  it('keeps one rating per account and an exact average', async () => {
    const item = await publishItem(h, a, 'agent');
    const [u1, u2, u3] = await Promise.all([createUser(h), createUser(h), createUser(h)]);
    const rate = (user: TestUser, score: number) =>
      h.http.put(`/api/v1/agent/${item.slug}/rating`).set(key(user)).send({ score });
    expect((await rate(u1!, 5)).body).toEqual({ score: 5, ratingAverage: 5, ratingCount: 1 });
    expect((await rate(u2!, 4)).body).toEqual({ score: 4, ratingAverage: 4.5, ratingCount: 2 });
    expect((await rate(u3!, 4)).body).toEqual({ score: 4, ratingAverage: 4.33, ratingCount: 3 });
    expect((await rate(u1!, 1)).body).toEqual({ score: 1, ratingAverage: 3, ratingCount: 3 });
    const detail = await h.http.get(`/api/v1/agent/${item.slug}`);
    expect(detail.body.stats).toMatchObject({ ratingCount: 3, ratingAverage: 3 });
    expect(detail.body.ratingAverage).toBe(3);
  });

  it('stays exact under concurrent ratings', async () => {
    const item = await publishItem(h, a, 'mcp');
    const users = await Promise.all(Array.from({ length: 12 }, () => createUser(h)));
    const scores = users.map((_, n) => (n % 5) + 1);
    await Promise.all(
      users.map((user, n) =>
        h.http.put(`/api/v1/mcp/${item.slug}/rating`).set(key(user)).send({ score: scores[n] }).expect(200),
      ),
    );
    // Every user changes their mind at once, too.
    await Promise.all(
      users.map((user) => h.http.put(`/api/v1/mcp/${item.slug}/rating`).set(key(user)).send({ score: 5 }).expect(200)),
    );
    await Promise.all(
      users
        .slice(0, 6)
        .map((user) => h.http.put(`/api/v1/mcp/${item.slug}/rating`).set(key(user)).send({ score: 2 }).expect(200)),
    );
    const detail = await h.http.get(`/api/v1/mcp/${item.slug}`);
    expect(detail.body.stats).toMatchObject({ ratingCount: 12, ratingAverage: 3.5 });
    // The running sums agree with a recount of the ratings themselves.
    const { rows } = await h.ctx.pool.query(
      `select i.rating_sum, i.rating_count, (select sum(score)::int from catalog_ratings where item_id = i.id) as recount
         from catalog_items i where i.slug = $1 and i.type = 'mcp'`,
      [item.slug],
    );
    expect(rows[0]).toEqual({ rating_sum: 42, rating_count: 12, recount: 42 });
  });

  it('counts one account once when its first ratings of an item arrive together', async () => {
    const item = await publishItem(h, a, 'skill');
    const user = await createUser(h);
    const scores = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5];
    const answers = await Promise.all(
      scores.map((score) => h.http.put(`/api/v1/skill/${item.slug}/rating`).set(key(user)).send({ score })),
    );
    expect(answers.map((r) => r.status)).toEqual(scores.map(() => 200));
    const { rows } = await h.ctx.pool.query(
      `select i.rating_count, i.rating_sum, r.score from catalog_items i join catalog_ratings r on r.item_id = i.id
        where i.slug = $1 and i.type = 'skill'`,
      [item.slug],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].rating_count).toBe(1);
    expect(rows[0].rating_sum).toBe(rows[0].score);
  });

  it('answers 400 Rating.Invalid outside 1..5, 401 without a key, 404 for an unpublished item', async () => {
    const item = await publishItem(h, a, 'soul');
    for (const score of [0, 6, 2.5, '5', null]) {
      const res = await h.http.put(`/api/v1/soul/${item.slug}/rating`).set(key(a.outsider)).send({ score });
      expect(res.status).toBe(400);
      expect(problem(res).title).toBe('Rating.Invalid');
    }
    expect((await h.http.put(`/api/v1/soul/${item.slug}/rating`).send({ score: 3 })).status).toBe(401);
    const draft = await createDraft(h, a, 'soul');
    const res = await h.http.put(`/api/v1/soul/${draft.slug}/rating`).set(key(a.outsider)).send({ score: 3 });
    expect(res.status).toBe(404);
    expect(problem(res).title).toBe('Soul.NotFound');
    expect((await h.http.get(`/api/v1/soul/${item.slug}`)).body.stats.ratingCount).toBe(0);
  });
});

describe('GET /api/v1/{type}/{slug}/rating', () => {
  it("answers the account's own score once it rated, and the new one after a change", async () => {
    const item = await publishItem(h, a, 'mcp');
    const [rater, other] = await Promise.all([createUser(h), createUser(h)]);
    const own = (user: TestUser) => h.http.get(`/api/v1/mcp/${item.slug}/rating`).set(key(user));
    const none = await own(rater);
    expect(none.status).toBe(404);
    expect(problem(none).title).toBe('Rating.NotFound');
    await h.http.put(`/api/v1/mcp/${item.slug}/rating`).set(key(rater)).send({ score: 2 }).expect(200);
    const first = await own(rater);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ score: 2, ratedAt: expect.any(String) });
    expect(first.headers['x-ratelimit-remaining']).toBeDefined();
    await h.http.put(`/api/v1/mcp/${item.slug}/rating`).set(key(rater)).send({ score: 5 }).expect(200);
    expect((await own(rater)).body.score).toBe(5);
    // Another account's rating is its own: it has none yet.
    expect(problem(await own(other)).title).toBe('Rating.NotFound');
  });

  it('answers 401 without a key, 404 <Type>.NotFound for an unpublished or unknown item', async () => {
    const item = await publishItem(h, a, 'agent');
    expect((await h.http.get(`/api/v1/agent/${item.slug}/rating`)).status).toBe(401);
    const draft = await createDraft(h, a, 'agent');
    for (const slug of [draft.slug, 'no-such-agent', 'Not_A_Slug']) {
      const res = await h.http.get(`/api/v1/agent/${slug}/rating`).set(key(a.outsider));
      expect(res.status).toBe(404);
      expect(problem(res).title).toBe('Agent.NotFound');
    }
  });
});
