import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser, signInAdmin } from '../support/identity.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});

const cookieOf = (res: { headers: Record<string, unknown> }) => {
  const set = res.headers['set-cookie'] as string[] | undefined;
  return set?.[0] ?? '';
};

describe('the queue dashboard at /admin/queues', () => {
  it('answers 401 without a credential, for the page and for its API', async () => {
    expect((await h.http.get('/admin/queues')).status).toBe(401);
    expect((await h.http.get('/admin/queues/api/queues')).status).toBe(401);
    expect((await h.http.get('/admin/queues').set('cookie', 'ockhub_admin_session=ocs_forged')).status).toBe(401);
  });

  it('answers 403 to a console session without the Admin role and to API keys, even an Admin account key', async () => {
    const publisher = await createUser(h, { roles: ['Publisher', 'Moderator'] });
    expect((await h.http.get('/admin/queues').set(bearer(publisher.session))).status).toBe(403);
    expect((await h.http.post('/admin/session').set(bearer(publisher.session))).status).toBe(403);
    const admin = await createUser(h, { roles: ['Admin'] });
    expect((await h.http.get('/admin/queues').set(bearer(admin.apiKey))).status).toBe(403);
    expect((await h.http.post('/admin/session').set(bearer(admin.apiKey))).status).toBe(403);
  });

  it('serves the page and every queue of the registry to an Admin session through the HttpOnly cookie', async () => {
    const admin = await signInAdmin(h);
    const session = await h.http.post('/admin/session').set(bearer(admin.token));
    expect(session.status).toBe(204);
    const cookie = cookieOf(session);
    expect(cookie).toMatch(/^ockhub_admin_session=ocs_/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/admin/);
    const jar = cookie.split(';')[0] as string;

    const page = await h.http.get('/admin/queues').set('cookie', jar);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    const script = /src="(static\/js\/main[^"]+\.js)"/.exec(page.text)?.[1];
    expect((await h.http.get(`/admin/queues/${script}`).set('cookie', jar)).status).toBe(200);
    await h.ctx.queues.add('maintenance', 'wallet-sweep', {});
    const api = await h.http.get('/admin/queues/api/queues').set('cookie', jar);
    expect(api.status).toBe(200);
    const names = (api.body.queues as { name: string }[]).map((q) => q.name).sort();
    expect(names).toEqual([
      'alerts',
      'ledger',
      'maintenance',
      'quota',
      'skill-bundle',
      'telemetry',
      'video',
      'video-rehost',
      'web-fetch',
    ]);

    const out = await h.http.delete('/admin/session');
    expect(out.status).toBe(204);
    expect(cookieOf(out)).toMatch(/^ockhub_admin_session=;/);
  });

  it('refuses a state-changing call carried by either cookie unless it comes from a page of this origin', async () => {
    const admin = await signInAdmin(h);
    const jar = (cookieOf(await h.http.post('/admin/session').set(bearer(admin.token))) as string).split(
      ';',
    )[0] as string;
    const queue = h.ctx.queues.queue('maintenance');
    await queue.resume();
    const pause = (cookie: string, site?: string) => {
      const call = h.http.put('/admin/queues/api/queues/maintenance/pause').set('cookie', cookie);
      return site ? call.set('sec-fetch-site', site) : call;
    };
    // A fetch() from a sibling subdomain's page: SameSite=Strict still sends the cookie, the browser says same-site.
    const crossSite = await pause(jar, 'same-site');
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.title).toBe('Auth.CrossSiteRequest');
    expect((await pause(jar)).status).toBe(403); // no browser sends a state change with neither header
    expect((await pause(`ockhub_session=${admin.token}`, 'same-site')).status).toBe(403);
    expect(await queue.isPaused()).toBe(false);

    expect((await pause(jar, 'same-origin')).status).toBe(200); // the dashboard's own page
    expect(await queue.isPaused()).toBe(true);
    await queue.resume();
    // A bearer header is no cookie: no page can make a browser send it.
    const byHeader = await h.http.put('/admin/queues/api/queues/maintenance/pause').set(bearer(admin.token));
    expect(byHeader.status).toBe(200);
    await queue.resume();
  });
});
