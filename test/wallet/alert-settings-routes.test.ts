// GET/PUT /api/organization/wallet/alerts, the test alert and the alert history: defaults, validation (nothing
// changes on a 400), private webhook addresses refused at save time, and the org-Admin rule.

import { TEST_ALERTS_PER_HOUR } from '../../shared/wallet/balance-alerts.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createUser } from '../support/identity.js';
import { aMember, anOrganization, expectEnvelopeError, inOrg, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  // Only the test receivers' address 127.0.0.1 is exempt; every other private address stays refused.
  h = await createHarness({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(async () => h.close());

const url = '/api/organization/wallet/alerts';
const settingsOf = async (org: TestOrg) => (await h.http.get(url).set(inOrg(org.admin, org.id))).body.data;

describe('GET /api/organization/wallet/alerts', () => {
  it('shows the default settings with the organization webhook signing secret', async () => {
    const org = await anOrganization(h);
    const res = await h.http.get(url).set(inOrg(org.admin, org.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        emailAlertEnabled: true,
        maxDailyAlerts: 3,
        customHeaders: {},
        messageTemplate: expect.stringContaining('{threshold}'),
        thresholds: [10, 5, 3, 1],
        webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      },
      code: 200,
      error: null,
    });
  });

  it('is for organization Admins: 403 for a Member, 401 without credentials, 404 for a stranger', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    expectEnvelopeError(await h.http.get(url).set(inOrg(member, org.id)), 403, 'Organization.Forbidden');
    expectEnvelopeError(await h.http.get(url), 401, 'Auth.Unauthorized');
    const stranger = await createUser(h);
    expectEnvelopeError(await h.http.get(url).set(inOrg(stranger, org.id)), 404, 'Organization.NotFound');
  });
});

describe('PUT /api/organization/wallet/alerts', () => {
  it('saves e-mail and webhook settings; thresholds come back sorted, exact and without repeats', async () => {
    const org = await anOrganization(h);
    const res = await h.http
      .put(url)
      .set(inOrg(org.admin, org.id))
      .send({
        emailAlertEnabled: false,
        maxDailyAlerts: 0,
        webhookUrl: 'http://127.0.0.1:9/hooks/balance',
        customHeaders: { Authorization: 'Bearer abc', 'X-Team': 'billing' },
        messageTemplate: 'Below {threshold}!',
        thresholds: [2.5, '20', 7.000001, 20],
      });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      emailAlertEnabled: false,
      maxDailyAlerts: 0,
      webhookUrl: 'http://127.0.0.1:9/hooks/balance',
      customHeaders: { Authorization: 'Bearer abc', 'X-Team': 'billing' },
      messageTemplate: 'Below {threshold}!',
      thresholds: [20, 7.000001, 2.5],
    });
    expect(await settingsOf(org)).toEqual(res.body.data);
  });

  it('keeps the custom headers in the order they were written (the console lists them so)', async () => {
    const org = await anOrganization(h);
    // jsonb's own order would be X-Team, X-Zone-Id, Authorization (shorter names first).
    const customHeaders = { 'X-Zone-Id': 'north', Authorization: 'Bearer abc', 'X-Team': 'billing' };
    const res = await h.http.put(url).set(inOrg(org.admin, org.id)).send({ customHeaders }).expect(200);
    expect(Object.keys(res.body.data.customHeaders)).toEqual(Object.keys(customHeaders));
    expect(Object.keys((await settingsOf(org)).customHeaders)).toEqual(Object.keys(customHeaders));
  });

  it('keeps the fields a request leaves out, clears the webhook with null and rotates the secret on request', async () => {
    const org = await anOrganization(h);
    const before = await settingsOf(org);
    await h.http.put(url).set(inOrg(org.admin, org.id)).send({ webhookUrl: 'http://127.0.0.1:9/x' }).expect(200);
    const cleared = await h.http
      .put(url)
      .set(inOrg(org.admin, org.id))
      .send({ webhookUrl: null, rotateWebhookSecret: true });
    expect(cleared.body.data.webhookUrl).toBeUndefined();
    expect(cleared.body.data.thresholds).toEqual([10, 5, 3, 1]);
    expect(cleared.body.data.webhookSecret).toMatch(/^whsec_/);
    expect(cleared.body.data.webhookSecret).not.toBe(before.webhookSecret);
    // The replaced secret signs deliveries beside the new one for 24 hours, and the settings say until when.
    const until = Date.parse(cleared.body.data.previousWebhookSecretUntil);
    expect(until - Date.now()).toBeGreaterThan(23 * 3_600_000);
    expect(until - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);
    expect(before.previousWebhookSecretUntil).toBeUndefined();
  });

  it.each([
    ['thresholds that are not numbers', { thresholds: ['abc'] }],
    ['a negative threshold', { thresholds: [5, -1] }],
    ['a threshold with 7 decimals', { thresholds: [1.0000001] }],
    ['thresholds that are not a list', { thresholds: 5 }],
    ['maxDailyAlerts below 0', { maxDailyAlerts: -1 }],
    ['a fractional maxDailyAlerts', { maxDailyAlerts: 1.5 }],
    ['a non-boolean emailAlertEnabled', { emailAlertEnabled: 'yes' }],
    ['an empty message template', { messageTemplate: ' ' }],
    ['a header that ockhub sets itself', { customHeaders: { 'Webhook-Signature': 'forged' } }],
    ['a header value with a line break', { customHeaders: { 'X-A': 'a\r\nX-B: b' } }],
    ['an invalid header name', { customHeaders: { 'bad name': 'x' } }],
  ])('refuses %s with 400 and changes nothing', async (_label, body) => {
    const org = await anOrganization(h);
    const before = await settingsOf(org);
    const res = await h.http.put(url).set(inOrg(org.admin, org.id)).send(body);
    expectEnvelopeError(res, 400, 'Wallet.InvalidAlertSettings');
    expect(await settingsOf(org)).toEqual(before);
  });

  it.each([
    ['a scheme other than http(s)', 'ftp://example.com/hook', 'Wallet.InvalidAlertSettings'],
    ['a file URL', 'file:///etc/passwd', 'Wallet.InvalidAlertSettings'],
    ['a private address', 'http://10.0.0.8/hook', 'Wallet.InvalidWebhookUrl'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data', 'Wallet.InvalidWebhookUrl'],
    ['an IPv6 loopback', 'http://[::1]:8080/hook', 'Wallet.InvalidWebhookUrl'],
    ['an IPv4-mapped loopback', 'http://[::ffff:127.0.0.2]/hook', 'Wallet.InvalidWebhookUrl'],
    ['a decimal-encoded loopback', 'http://2130706434/hook', 'Wallet.InvalidWebhookUrl'],
    ['a hex-encoded loopback', 'http://0x7f000002/hook', 'Wallet.InvalidWebhookUrl'],
    ['an unspecified address', 'http://0.0.0.0:8080/hook', 'Wallet.InvalidWebhookUrl'],
    ['credentials in the URL', 'http://user:pw@example.com/hook', 'Wallet.InvalidWebhookUrl'],
  ])('refuses a webhook URL with %s (400) and changes nothing', async (_label, webhookUrl, code) => {
    const org = await anOrganization(h);
    const before = await settingsOf(org);
    const res = await h.http
      .put(url)
      .set(inOrg(org.admin, org.id))
      .send({ webhookUrl, thresholds: [1] });
    expectEnvelopeError(res, 400, code);
    expect(await settingsOf(org)).toEqual(before);
  });

  it('is for organization Admins: 403 for a Member, 401 without credentials', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    const res = await h.http.put(url).set(inOrg(member, org.id)).send({ maxDailyAlerts: 9 });
    expectEnvelopeError(res, 403, 'Organization.Forbidden');
    expectEnvelopeError(await h.http.put(url).send({ maxDailyAlerts: 9 }), 401, 'Auth.Unauthorized');
    expect((await settingsOf(org)).maxDailyAlerts).toBe(3);
  });
});

describe('POST /api/organization/wallet/alerts/test', () => {
  it('queues a test alert that the alert history then lists (202)', async () => {
    const org = await anOrganization(h);
    const res = await h.http.post(`${url}/test`).set(inOrg(org.admin, org.id));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ data: { alertId: expect.any(String) }, code: 202, error: null });
    const queued = await h.ctx.queues.queue('alerts').getJob(`test-alert-${res.body.data.alertId}`);
    expect(queued?.name).toBe('test-alert');
    const history = await h.http.get(`${url}/history`).set(inOrg(org.admin, org.id));
    expect(history.body).toMatchObject({ total: 1, page: 1, size: 20 });
    expect(history.body.data[0]).toMatchObject({
      id: res.body.data.alertId,
      kind: 'test',
      threshold: 10,
      balance: 0,
      currency: 'USD',
      email: { status: 'pending' },
      webhook: { status: 'pending' },
      attempts: [],
    });
  });

  it('takes at most TEST_ALERTS_PER_HOUR per organization, also at once; past it 429 with Retry-After and nothing queued', async () => {
    const org = await anOrganization(h);
    const other = await anOrganization(h);
    const answers = await Promise.all(
      Array.from({ length: TEST_ALERTS_PER_HOUR + 5 }, () => h.http.post(`${url}/test`).set(inOrg(org.admin, org.id))),
    );
    expect(answers.filter((r) => r.status === 202)).toHaveLength(TEST_ALERTS_PER_HOUR);
    const refused = answers.filter((r) => r.status !== 202);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expectEnvelopeError(r, 429, 'Alert.TooManyTests');
      expect(Number(r.headers['retry-after'])).toBeGreaterThan(3_000);
    }
    const history = await h.http.get(`${url}/history`).set(inOrg(org.admin, org.id));
    expect(history.body.total).toBe(TEST_ALERTS_PER_HOUR);
    // Each organization has its own hour.
    expect((await h.http.post(`${url}/test`).set(inOrg(other.admin, other.id))).status).toBe(202);
  });

  it('is for organization Admins: 403 for a Member, 401 without credentials, 404 for a stranger', async () => {
    const org = await anOrganization(h);
    const member = await aMember(h, org);
    expectEnvelopeError(await h.http.post(`${url}/test`).set(inOrg(member, org.id)), 403, 'Organization.Forbidden');
    expectEnvelopeError(await h.http.post(`${url}/test`), 401, 'Auth.Unauthorized');
    const stranger = await createUser(h);
    expectEnvelopeError(await h.http.post(`${url}/test`).set(inOrg(stranger, org.id)), 404, 'Organization.NotFound');
    expectEnvelopeError(await h.http.get(`${url}/history`).set(inOrg(member, org.id)), 403, 'Organization.Forbidden');
    expectEnvelopeError(
      await h.http.get(`${url}/history?size=0`).set(inOrg(org.admin, org.id)),
      400,
      'Wallet.InvalidQuery',
    );
  });
});
