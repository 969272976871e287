// SPEC section 1: a disabled or deleted key is 401 everywhere at once: on the gateway (Bearer and x-api-key, the
// direct lane's hot routes and the router's), the catalog family and the organization family, each in its shape.
import type { Response } from 'supertest';
import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { bearer } from '../support/identity.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '5' });
});
afterAll(() => w.close());

const countBody = { model: 'claude-sonnet-5', messages: [{ role: 'user', content: 'hello' }] };

/** Each family's use of the key, and what its 401 looks like there. */
const uses: [string, (key: string) => Promise<Response>, (res: Response) => unknown][] = [
  [
    'count_tokens with x-api-key',
    (key) => w.h.http.post('/v1/messages/count_tokens').set('x-api-key', key).send(countBody),
    (res) => res.body.error.type,
  ],
  [
    'count_tokens with Bearer',
    (key) => w.h.http.post('/v1/messages/count_tokens').set(bearer(key)).send(countBody),
    (res) => res.body.error.type,
  ],
  ['the models list', (key) => w.h.http.get('/v1/models').set(bearer(key)), (res) => res.body.error.type],
  ['auth/me', (key) => w.h.http.get('/api/v1/auth/me').set(bearer(key)), (res) => JSON.parse(res.text).title],
  ['the organizations', (key) => w.h.http.get('/api/organizations').set(bearer(key)), (res) => res.body.error.code],
];

const expected401 = [
  'authentication_error',
  'authentication_error',
  'authentication_error',
  'Auth.Unauthorized',
  'Auth.Unauthorized',
];

async function answers(key: string) {
  const out: { status: number; error: unknown }[] = [];
  for (const [, use, errorOf] of uses) {
    const res = await use(key);
    out.push({ status: res.status, error: res.status === 401 ? errorOf(res) : undefined });
  }
  return out;
}

const allOk = uses.map(() => ({ status: 200, error: undefined }));
const all401 = expected401.map((error) => ({ status: 401, error }));

it('refuses a disabled project key on every family at once, takes it back once enabled, and never after delete', async () => {
  const created = await w.h.http
    .post('/api/v1/api-keys')
    .set(bearer(w.org.admin.session))
    .send({ name: 'everywhere', projectId: w.projectId });
  expect(created.status).toBe(200);
  const { id, token } = created.body as { id: string; token: string };
  expect(await answers(token)).toEqual(allOk);

  const keyRoute = (action: string) => `/api/v1/api-keys/${id}${action}`;
  expect((await w.h.http.post(keyRoute('/disable')).set(bearer(w.org.admin.session))).status).toBe(200);
  expect(await answers(token)).toEqual(all401);

  expect((await w.h.http.post(keyRoute('/enable')).set(bearer(w.org.admin.session))).status).toBe(200);
  expect(await answers(token)).toEqual(allOk);

  expect((await w.h.http.delete(keyRoute('')).set(bearer(w.org.admin.session))).status).toBe(200);
  expect(await answers(token)).toEqual(all401);
});
