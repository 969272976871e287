import { consumeRecords, type GatewayWorld, openGatewayWorld, requestLogsOf, walletOf } from '../support/gateway.js';
import { bearer } from '../support/identity.js';

type Item = { url: string; title: string; content: string; score: number };

describe.each(['tavily', 'brave'] as const)('POST /v1/web/search through the %s adapter', (kind) => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openGatewayWorld({ balance: '5', env: { UPSTREAM_SEARCH_KIND: kind } });
  });
  afterAll(async () => w?.close());

  const search = (body: unknown) =>
    w.h.http
      .post('/v1/web/search')
      .set(bearer(w.key))
      .send(body as object);
  const upstreamRequests = () =>
    w.sim.state.requests.filter((r) => r.path === '/search' || r.path.startsWith('/res/v1/'));

  it('answers maxResults results normalized to {url,title,content,score}, scores in 0..1, best first', async () => {
    const res = await search({ query: 'solar panels', maxResults: 7 });
    expect(res.status).toBe(200);
    const items = res.body.items as Item[];
    expect(items).toHaveLength(7);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['content', 'score', 'title', 'url']);
      expect(item.url).toMatch(/^https:\/\/example\.com\/solar-panels\/result-\d+$/);
      expect(item.title).toContain('solar panels');
      expect(item.score).toBeGreaterThanOrEqual(0);
      expect(item.score).toBeLessThanOrEqual(1);
    }
    const scores = items.map((i) => i.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(res.body.images).toBeUndefined();
  });

  it('answers 5 results by default, with the key as Bearer or as x-api-key', async () => {
    const res = await search({ query: 'default count' });
    expect(res.body.items).toHaveLength(5);
    const viaHeader = await w.h.http.post('/v1/web/search').set('x-api-key', w.key).send({ query: 'default count' });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body).toEqual(res.body);
  });

  it('adds images when includeImages is true', async () => {
    const res = await search({ query: 'red pandas', maxResults: 3, includeImages: true });
    expect(res.status).toBe(200);
    expect(res.body.images.length).toBeGreaterThan(0);
    for (const image of res.body.images) expect(image.url).toMatch(/^https?:\/\//);
  });

  it('passes startDate and endDate to the provider as calendar days', async () => {
    w.sim.state.clear();
    const res = await search({ query: 'dated', startDate: '2024-03-01', endDate: '2024-03-31T23:00:00Z' });
    expect(res.status).toBe(200);
    const [sent] = upstreamRequests();
    if (kind === 'tavily') expect(sent?.body).toMatchObject({ start_date: '2024-03-01', end_date: '2024-03-31' });
    else expect(sent?.query).toMatchObject({ freshness: '2024-03-01to2024-03-31' });
  });

  it.each([
    [{}, /query/],
    [{ query: '' }, /query: must not be empty/],
    [{ query: '   ' }, /query: must not be empty/],
    [{ query: 'x', maxResults: 0 }, /maxResults: must be between 1 and 20/],
    [{ query: 'x', maxResults: 21 }, /maxResults: must be between 1 and 20/],
    [{ query: 'x', maxResults: 2.5 }, /maxResults/],
    [{ query: 'x', startDate: 'yesterday' }, /startDate: must be an ISO 8601 date/],
    [{ query: 'x', endDate: '2024-02-30' }, /endDate: must be an ISO 8601 date/],
    [{ query: 'x', startDate: '2024-05-02', endDate: '2024-05-01' }, /startDate: must not be after endDate/],
    [{ query: 'x', endDate: '9999-12-31T23:59:59-23:59' }, /endDate: must be between 0001-01-01 and 9999-12-31/],
    [{ query: 'x', startDate: '0000-06-01' }, /startDate: must be between 0001-01-01 and 9999-12-31/],
    [{ query: 'x', includeImages: 'yes' }, /includeImages/],
  ])('answers 400 invalid_request_error for %j without calling the provider or charging', async (body, message) => {
    w.sim.state.clear();
    const before = (await consumeRecords(w.h, w.org)).length;
    const res = await search(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { message: expect.stringMatching(message), type: 'invalid_request_error', code: 'WebSearch.Invalid' },
    });
    expect(upstreamRequests()).toHaveLength(0);
    expect(await consumeRecords(w.h, w.org)).toHaveLength(before);
  });

  it('answers 400 for invalid JSON in the {error:{message,type}} shape', async () => {
    const res = await w.h.http
      .post('/v1/web/search')
      .set(bearer(w.key))
      .set('content-type', 'application/json')
      .send('{"query":');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.any(String) });
  });

  it('maps an upstream rate limit to 429 and an upstream outage to 503, charging nothing', async () => {
    const before = await walletOf(w.h, w.org);
    const limited = await search({ query: 'busy [rate-limited]' });
    expect(limited.status).toBe(429);
    expect(limited.body.error.type).toBe('rate_limit_error');
    expect(limited.headers['retry-after']).toBe('1');
    const down = await search({ query: 'down [overloaded]' });
    expect(down.status).toBe(503);
    expect(down.body.error.type).toBe('service_unavailable');
    const broken = await search({ query: 'broken [upstream-error]' });
    expect(broken.status).toBe(500);
    expect(broken.body.error.type).toBe('server_error');
    const after = await walletOf(w.h, w.org);
    expect(after.balance).toBe(before.balance);
    expect(after.frozenAmount).toBe(0);
    const logs = await requestLogsOf(w.h, w.projectId);
    expect(logs.filter((l) => l.status === 'failed')).toHaveLength(3);
  });

  it('records a search in the request log with the web-search model and the web price', async () => {
    const res = await search({ query: 'logged search' });
    expect(res.status).toBe(200);
    const logs = await requestLogsOf(w.h, w.projectId);
    const succeeded = logs.filter((l) => l.status === 'succeeded');
    expect(succeeded.length).toBeGreaterThan(0);
    for (const log of succeeded) {
      expect(log).toMatchObject({ operation: 'web_search', model: 'web-search', costMicros: 1000n, httpStatus: 200 });
    }
  });
});
