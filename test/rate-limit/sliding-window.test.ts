import { randomBytes } from 'node:crypto';
import { addressBucket } from '../../shared/rate-limit/address-bucket.js';
import { SlidingWindowLimiter, windowKey } from '../../shared/rate-limit/sliding-window.js';
import { createHarness, type Harness, waitUntil } from '../support/harness.js';

let h: Harness;
let limiter: SlidingWindowLimiter;
beforeAll(async () => {
  h = await createHarness();
  limiter = new SlidingWindowLimiter(h.ctx.redis);
});
afterAll(async () => h.close());

const freshKey = (name = 'test') => windowKey(h.config.REDIS_PREFIX, name, randomBytes(6).toString('hex'));

describe('SlidingWindowLimiter', () => {
  it('counts up to the limit, then refuses with the time until the oldest entry leaves the window', async () => {
    const key = freshKey();
    for (let i = 0; i < 3; i++) expect((await limiter.hit([{ key, limit: 3, windowMs: 60_000 }])).allowed).toBe(true);
    const refused = await limiter.hit([{ key, limit: 3, windowMs: 60_000 }]);
    expect(refused.allowed).toBe(false);
    if (refused.allowed) return;
    expect(refused.retryAfterMs).toBeGreaterThan(50_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await h.ctx.redis.zcard(key)).toBe(3);
  });

  it('admits exactly the limit out of many concurrent attempts', async () => {
    const key = freshKey();
    const results = await Promise.all(
      Array.from({ length: 60 }, () => limiter.hit([{ key, limit: 10, windowMs: 60_000 }])),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
    expect(await h.ctx.redis.zcard(key)).toBe(10);
  });

  it('counts an attempt in every key or in none', async () => {
    const full = freshKey();
    const other = freshKey();
    await limiter.hit([{ key: full, limit: 1, windowMs: 60_000 }]);
    const refused = await limiter.hit([
      { key: other, limit: 5, windowMs: 60_000 },
      { key: full, limit: 1, windowMs: 60_000 },
    ]);
    expect(refused.allowed).toBe(false);
    expect(await h.ctx.redis.exists(other)).toBe(0);
  });

  it('gives every key a lifetime of one window', async () => {
    const key = freshKey();
    await limiter.hit([{ key, limit: 5, windowMs: 30_000 }]);
    const ttl = await h.ctx.redis.pttl(key);
    expect(ttl).toBeGreaterThan(25_000);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it('lets attempts through again once the window has passed', async () => {
    const key = freshKey();
    const limit = { key, limit: 2, windowMs: 400 };
    // Sent in one turn, so Redis counts all three at one instant: one after another, a busy machine could take longer
    // than the window between the first and the third, which was then let through.
    const attempts = await Promise.all([limiter.hit([limit]), limiter.hit([limit]), limiter.hit([limit])]);
    expect(attempts.map((a) => a.allowed)).toEqual([true, true, false]);
    await waitUntil(async () => (await limiter.hit([limit])).allowed, 10_000, 50);
  });

  it('takes a counted attempt back, and empties the keys it is told to reset', async () => {
    const a = freshKey();
    const b = freshKey();
    await limiter.hit([{ key: a, limit: 5, windowMs: 60_000 }]);
    const admission = await limiter.hit([
      { key: a, limit: 5, windowMs: 60_000 },
      { key: b, limit: 5, windowMs: 60_000 },
    ]);
    if (!admission.allowed) throw new Error('expected an admission');
    await limiter.forget(admission.ticket, [b]);
    expect(await h.ctx.redis.zcard(a)).toBe(1);
    expect(await h.ctx.redis.exists(b)).toBe(0);
  });

  it('treats a limit of 0 as off', async () => {
    const key = freshKey();
    expect((await limiter.hit([{ key, limit: 0, windowMs: 1_000 }])).allowed).toBe(true);
    expect(await h.ctx.redis.exists(key)).toBe(0);
  });

  it('keeps every key under the configured prefix, so a hash-tagged prefix puts them in one cluster slot', () => {
    expect(windowKey('{ockhub}', 'login', 'addr', '10.0.0.1')).toBe('{ockhub}:rl:login:addr:10.0.0.1');
  });
});

describe('addressBucket', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['not an address {x}', 'not_an_address__x_'],
  ])('counts %s as %s', (address, bucket) => {
    expect(addressBucket(address)).toBe(bucket);
  });
});
