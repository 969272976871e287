import { generateToken } from '../../shared/identity/tokens.js';
import { createHarness, type Harness, waitUntil } from '../support/harness.js';
import { PrivateRedis } from '../support/private-redis.js';

describe('/ready follows Redis', () => {
  let redis: PrivateRedis;
  let h: Harness;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    h = await createHarness({ REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await h.close();
    await redis.stop();
  });

  it('answers 503 while Redis is down and 200 once it is back, without a restart', async () => {
    expect((await h.http.get('/ready')).status).toBe(200);

    await redis.stop();
    const down = await h.http.get('/ready');
    expect(down.status).toBe(503);
    expect(down.body.checks).toEqual({ postgres: 'ok', redis: 'down' });
    expect((await h.http.get('/health')).status).toBe(200);
    // A route that needs Redis answers 503 in its family's shape instead of hanging (a hang fails the test timeout).
    const authed = await h.http.get('/api/v1/auth/me').set('authorization', `Bearer ${generateToken('api-key')}`);
    expect(authed.status).toBe(503);
    expect(JSON.parse(authed.text).title).toBe('Service.Unavailable');
    expect(authed.headers['retry-after']).toBe('1');
    const org = await h.http.get('/api/organizations').set('authorization', `Bearer ${generateToken('session')}`);
    expect(org.status).toBe(503);
    expect(org.body.error.code).toBe('Service.Unavailable');

    await redis.start();
    await waitUntil(async () => (await h.http.get('/ready')).status === 200, 15_000, 200);
    expect((await h.http.get('/ready')).body.status).toBe('ready');
  });
});
