// Webhook custom header values: only what the webhook client can send is saved. A value with a character above
// U+00FF was saved and then refused by undici at every send, so every attempt of every alert failed; U+0080–U+00FF
// would go out as Latin-1 bytes a receiver reads as something else (review of 2026-11-27, second round;
// docs/wallet.md). Visible ASCII, spaces and tabs, nothing at either end: 400 Wallet.InvalidAlertSettings on save.
import { alertSettingsBody } from '../../api/routes/wallet/wallet.schemas.js';
import { sendWebhookAttempt, webhookClient } from '../../shared/wallet/alert-webhook.js';
import { createHarness, type Harness } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { anOrganization, expectEnvelopeError, inOrg } from '../support/org-fixtures.js';

let h: Harness;
let receiver: LoopbackServer;
beforeAll(async () => {
  h = await createHarness({ OUTBOUND_ALLOWED_HOSTS: '127.0.0.1' });
  receiver = await startLoopbackServer((_req, res) => res.end('ok'));
});
afterAll(async () => {
  await h.close();
  await receiver.close();
});
beforeEach(() => {
  receiver.requests.length = 0;
});

const url = '/api/organization/wallet/alerts';
const accepts = (value: string) => alertSettingsBody.safeParse({ customHeaders: { 'X-Check': value } }).success;
const send = (value: string) =>
  sendWebhookAttempt(
    webhookClient(h.config),
    {
      url: `${receiver.origin}/hook`,
      customHeaders: { 'x-check': value },
      secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
      messageId: 'msg_test',
      payload: { ok: true },
    },
    1,
  );

describe('PUT /api/organization/wallet/alerts: custom header values', () => {
  it.each([
    ['a character above U+00FF (an en dash)', 'Team – billing'],
    ['a euro sign', 'price in €'],
    ['a Latin-1 character (sent as one byte a receiver reads otherwise)', 'café'],
    ['a leading space', ' token'],
    ['a trailing space', 'token '],
    ['a leading tab', '\ttoken'],
    ['a trailing tab', 'token\t'],
    ['a DEL character', 'to\x7fken'],
  ])('refuses a value with %s (400) and changes nothing', async (_label, value) => {
    const org = await anOrganization(h);
    const before = (await h.http.get(url).set(inOrg(org.admin, org.id))).body.data;
    const res = await h.http
      .put(url)
      .set(inOrg(org.admin, org.id))
      .send({ customHeaders: { 'X-Team': value } });
    expectEnvelopeError(res, 400, 'Wallet.InvalidAlertSettings');
    expect(res.body.error.message).toMatch(/visible ASCII/);
    expect((await h.http.get(url).set(inOrg(org.admin, org.id))).body.data).toEqual(before);
  });

  it('saves visible ASCII with inner spaces and tabs, and an empty value', async () => {
    const org = await anOrganization(h);
    const customHeaders = { Authorization: 'Bearer a.b-c_d~e', 'X-Note': 'one\ttwo three "4" <5>', 'X-Empty': '' };
    const res = await h.http.put(url).set(inOrg(org.admin, org.id)).send({ customHeaders });
    expect(res.status).toBe(200);
    expect(res.body.data.customHeaders).toEqual(customHeaders);
  });
});

describe('what the webhook client sends', () => {
  it('refuses at send time a value above U+00FF, which the save used to accept', async () => {
    const attempt = await send('Team – billing');
    expect(attempt).toMatchObject({ succeeded: false, error: expect.any(String) });
    expect(receiver.requests).toHaveLength(0);
  });

  it('sends every character the save accepts, exactly; the save refuses every character from U+007F to U+02FF', async () => {
    const chars = Array.from({ length: 0x300 }, (_, code) => String.fromCharCode(code));
    const accepted = chars.filter((ch) => accepts(`a${ch}z`));
    expect(accepted).toEqual(['\t', ...chars.slice(0x20, 0x7f)]);
    const value = `a${accepted.join('')}z`;
    expect(accepts(value)).toBe(true);
    expect(await send(value)).toMatchObject({ succeeded: true });
    expect(receiver.requests[0]?.headers['x-check']).toBe(value);
  });
});
