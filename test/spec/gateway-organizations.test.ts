// SPEC sections 3, 4 and 5, statement by statement: the statements no other test held to the letter (a boundary
// accepted as well as the one past it refused, a header passed through with a value other than the default, a
// second crossing of the same threshold). Real PostgreSQL and Redis, the simulated provider in process.
import { imageProblem } from '../../shared/video/reference-images.js';
import { newVideoId } from '../../shared/video/video-ids.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld, recharge } from '../support/gateway.js';
import { bearer } from '../support/identity.js';
import { anOrganization, aProject, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';
import { usd } from '../support/wallet-factory.js';
import { spend } from '../support/wallet-spend.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '5' });
});
afterAll(async () => w?.close());

type Project = Awaited<ReturnType<typeof aProjectWithKey>>;

async function requestsCounted(p: Project): Promise<number> {
  const usage = await w.h.http
    .get(`/api/projects/${p.projectId}/quota-usage?period=day`)
    .set(inOrg(p.org.admin, p.org.id));
  expect(usage.status).toBe(200);
  return usage.body.data.dailyUsage.requestCount;
}

describe('SPEC 3, messages: the version header is passed through', () => {
  const upstream = (path: string) => w.sim.state.requests.filter((r) => r.path === path).at(-1);

  it.each([
    ['/v1/messages', { model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }],
    ['/v1/messages/count_tokens', { model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'hi' }] }],
  ])('forwards the caller’s anthropic-version, not the default, on %s', async (path, body) => {
    const res = await w.h.http.post(path).set({ 'x-api-key': w.key, 'anthropic-version': '2099-01-01' }).send(body);
    expect(res.status).toBe(200);
    expect(upstream(path)?.headers['anthropic-version']).toBe('2099-01-01');
  });
});

describe('SPEC 3, model registry: unknown model is 400', () => {
  it('refuses count_tokens for a model the registry does not name, in Anthropic’s shape, counting nothing', async () => {
    const p = await aProjectWithKey(w.h, '1');
    const res = await w.h.http
      .post('/v1/messages/count_tokens')
      .set(bearer(p.key))
      .send({ model: 'gpt-9000', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
    expect(await requestsCounted(p)).toBe(0);
  });
});

describe('SPEC 3, video ids: `video_` + a sortable random id', () => {
  it('sorts ids by creation time, across a second, a day and a year, and never repeats one', () => {
    const start = Date.UTC(2026, 10, 27, 12, 0, 0);
    const times = [start, start + 1, start + 1_000, start + 86_400_000, start + 366 * 86_400_000];
    const ids = times.map((t) => newVideoId(t));
    for (const id of ids) expect(id).toMatch(/^video_[0-9A-Z]{26}$/);
    expect([...ids].sort()).toEqual(ids);
    const sameInstant = Array.from({ length: 100 }, () => newVideoId(start));
    expect(new Set(sameInstant).size).toBe(100);
  });
});

describe('SPEC 3, reference images read by the worker: 300–6000 px per side, aspect 0.4–2.5', () => {
  /** The head of a PNG of that size (signature and IHDR): all the check reads. */
  function pngHead(width: number, height: number): Buffer {
    const ihdr = Buffer.alloc(25);
    ihdr.writeUInt32BE(13, 0);
    ihdr.write('IHDR', 4, 'ascii');
    ihdr.writeUInt32BE(width, 8);
    ihdr.writeUInt32BE(height, 12);
    ihdr[16] = 8;
    return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), ihdr]);
  }
  const problemOf = (width: number, height: number) => imageProblem({ head: pngHead(width, height), bytes: 1_000 });

  it.each([
    [300, 300],
    [6000, 6000],
    [750, 300], // aspect 2.5
    [300, 750], // aspect 0.4
    [6000, 2400],
  ])('accepts %dx%d, on the bounds', (width, height) => {
    expect(problemOf(width, height)).toBeNull();
  });

  it.each([
    [299, 300, /too small/],
    [300, 299, /too small/],
    [6001, 6000, /too large/],
    [751, 300, /aspect ratio/],
    [300, 751, /aspect ratio/],
  ])('refuses %dx%d, just past them', (width, height, reason) => {
    expect(problemOf(width, height)).toMatch(reason);
  });
});

describe('SPEC 3, web search: maxResults 1..20', () => {
  it.each([1, 20])('answers exactly maxResults results for maxResults %d', async (maxResults) => {
    const res = await w.h.http.post('/v1/web/search').set(bearer(w.key)).send({ query: 'kites', maxResults });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(maxResults);
  });
});

describe('SPEC 4, balance alerts: from ≥ a threshold to < it, one alert per crossing', () => {
  const alertsUrl = '/api/organization/wallet/alerts';

  async function organizationAt(balance: string): Promise<TestOrg> {
    const p = await aProjectWithKey(w.h, balance);
    const saved = await w.h.http
      .put(alertsUrl)
      .set(inOrg(p.org.admin, p.org.id))
      .send({ thresholds: [10], emailAlertEnabled: false });
    expect(saved.status).toBe(200);
    return p.org;
  }
  const balanceAlerts = async (org: TestOrg) => {
    const res = await w.h.http.get(`${alertsUrl}/history?size=100`).set(inOrg(org.admin, org.id));
    expect(res.status).toBe(200);
    return (res.body.data as { kind: string; threshold: number; balance: number }[]).filter(
      (a) => a.kind === 'balance',
    );
  };

  it('raises nothing for a consumption that ends exactly on the threshold, and one for the next below it', async () => {
    const org = await organizationAt('10.5');
    await spend(w.h.ctx, org.id, usd('0.5')); // 10.5 → 10: not below 10
    expect(await balanceAlerts(org)).toEqual([]);
    await spend(w.h.ctx, org.id, usd('0.000001')); // 10 → 9.999999: from ≥ 10 to < 10
    expect(await balanceAlerts(org)).toEqual([expect.objectContaining({ threshold: 10, balance: 9.999999 })]);
    await spend(w.h.ctx, org.id, usd('1')); // already below: no new crossing
    expect(await balanceAlerts(org)).toHaveLength(1);
  });

  it('raises a second alert when a recharge lifts the balance back over the threshold and it is crossed again', async () => {
    const org = await organizationAt('10.2');
    await spend(w.h.ctx, org.id, usd('0.5'));
    expect(await balanceAlerts(org)).toHaveLength(1);
    await recharge(w.h, org, '5'); // 9.7 → 14.7: a recharge raises nothing
    expect(await balanceAlerts(org)).toHaveLength(1);
    await spend(w.h.ctx, org.id, usd('5'));
    expect((await balanceAlerts(org)).map((a) => [a.threshold, a.balance])).toEqual([
      [10, 9.7],
      [10, 9.7],
    ]);
  });
});

describe('SPEC 4, the organization a route acts in', () => {
  it('takes a /api/projects/{projectId} route’s organization from the project, whatever the header or the count', async () => {
    const first = await anOrganization(w.h, undefined, 'First');
    const second = await anOrganization(w.h, first.admin, 'Second');
    const project = await aProject(w.h, first, 'In the first');
    const caller = first.admin;
    for (const headers of [bearer(caller.session), inOrg(caller, second.id)]) {
      const read = await w.h.http.get(`/api/projects/${project.id}`).set(headers);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: project.id, organizationId: first.id });
      const usage = await w.h.http.get(`/api/projects/${project.id}/quota-usage`).set(headers);
      expect(usage.status).toBe(200);
      expect(usage.body.data).toMatchObject({ projectId: project.id, period: 'month' });
    }
  });

  it('lists with GET /api/projects only the current organization’s projects', async () => {
    const first = await anOrganization(w.h, undefined, 'First');
    const second = await anOrganization(w.h, first.admin, 'Second');
    const a = await aProject(w.h, first, 'A');
    const b = await aProject(w.h, second, 'B');
    const ids = async (orgId: string) =>
      (await w.h.http.get('/api/projects').set(inOrg(first.admin, orgId))).body.data.map((p: { id: string }) => p.id);
    expect(await ids(first.id)).toEqual([a.id]);
    expect(await ids(second.id)).toEqual([b.id]);
    expectEnvelopeError(
      await w.h.http.get('/api/projects').set(bearer(first.admin.session)),
      400,
      'Organization.NotSelected',
    );
  });
});
