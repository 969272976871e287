// A batch of 100 slugs the process had not looked up lately ran 100 PostgreSQL lookups at once: it took every
// connection of the API's pool, and with PostgreSQL busy (a CI run) its last checkouts passed the pool's 5 s checkout
// timeout and the whole batch answered 503, as other requests waiting for the pool would. Its lookups now run at most
// BATCH_LOOKUPS_AT_ONCE at a time.
import { BATCH_LOOKUPS_AT_ONCE } from '../../shared/telemetry/telemetry-ingest.js';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE: '0' });
});
afterAll(() => h?.close());

it('looks up a batch’s unknown slugs a few at a time, leaving the pool to other requests', async () => {
  let inUse = 0;
  let most = 0;
  const acquired = () => {
    inUse += 1;
    most = Math.max(most, inUse);
  };
  const released = () => {
    inUse -= 1;
  };
  h.ctx.pool.on('acquire', acquired);
  h.ctx.pool.on('release', released);
  try {
    const run = `unknown-${Date.now()}`;
    const res = await h.http.post('/api/v1/telemetry').send({
      events: Array.from({ length: 100 }, (_, i) => ({ itemType: 'skill', slug: `${run}-${i}`, eventType: 'view' })),
    });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(100);
    expect(new Set(res.body.results.map((r: { error?: { code: string } }) => r.error?.code))).toEqual(
      new Set(['Skill.NotFound']),
    );
  } finally {
    h.ctx.pool.off('acquire', acquired);
    h.ctx.pool.off('release', released);
  }
  // At most the batch's lanes, and a little room for anything else the harness runs meanwhile; 10 (the pool) before.
  expect(most).toBeGreaterThan(0);
  expect(most).toBeLessThanOrEqual(BATCH_LOOKUPS_AT_ONCE + 2);
});
