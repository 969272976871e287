// Two quota updates of one project leave the enforcement cache with the limits PostgreSQL holds, whatever order their
// cache writes are ready in. Found by a review: the cache was replaced after each commit, so the first update's write
// could land last and keep its limits enforced for the cache's hour. Now the write happens while the update holds
// the row's lock, so a second update waits for the first's write and commit, and writes after it.

import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { getProjectQuota, setProjectQuota } from '../../shared/organizations/project-quotas.js';
import { QuotaCounters } from '../../shared/quota/quota-counters.js';
import { createHarness, type Harness, waitUntil } from '../support/harness.js';
import { anOrganization, aProject, type TestOrg } from '../support/org-fixtures.js';

let h: Harness;
let org: TestOrg;
beforeAll(async () => {
  h = await createHarness();
  org = await anOrganization(h);
});
afterAll(async () => h.close());

/** A Redis client whose MULTI blocks wait at EXEC until `release()` (a cache write slow on the network). */
function heldRedis(redis: Redis) {
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const arrived = new Promise<void>((r) => {
    reached = r;
  });
  const proxy = new Proxy(redis, {
    get(target, prop, receiver) {
      if (prop === 'multi') {
        return (...args: unknown[]) => {
          const m = (target.multi as (...a: unknown[]) => ReturnType<Redis['multi']>)(...args);
          const exec = m.exec.bind(m);
          m.exec = (async () => {
            reached();
            await gate;
            return exec();
          }) as typeof m.exec;
          return m;
        };
      }
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { redis: proxy as Redis, release, arrived };
}

/** Whether some session waits on a row lock of project_quotas (the second update behind the first). */
const updateWaitsOnLock = async () => {
  const { rows } = await h.ctx.db.execute<{ n: number }>(sql`
    select count(*)::int as n from pg_stat_activity
    where wait_event_type = 'Lock' and query ilike '%project_quotas%'`);
  return (rows[0]?.n ?? 0) > 0 ? true : undefined;
};

it('enforces the limits of the update that committed last, though the first one’s cache write was slower', async () => {
  const { id: projectId } = await aProject(h, org);
  await setProjectQuota(h.ctx, projectId, { dailyRequestLimit: 100 });

  // The Owner removes the daily limit (A); a moment later sets it to 1 (B). A's cache write is slow.
  const slow = heldRedis(h.ctx.redis);
  const a = setProjectQuota({ ...h.ctx, redis: slow.redis }, projectId, { dailyRequestLimit: null });
  await slow.arrived;
  const b = setProjectQuota(h.ctx, projectId, { dailyRequestLimit: 1 });
  await waitUntil(updateWaitsOnLock); // B waits for A's row lock: it cannot write the cache before A
  slow.release();
  await Promise.all([a, b]);

  expect((await getProjectQuota(h.ctx.db, projectId))?.dailyRequestLimit).toBe(1);
  const engine = new QuotaCounters({ redis: h.ctx.redis, db: h.ctx.db, prefix: h.config.REDIS_PREFIX });
  const results = [];
  for (let i = 0; i < 3; i++) results.push((await engine.admit(projectId)).admitted);
  expect(results).toEqual([true, false, false]);
});

it('drops the cached settings when the update does not commit, so the next request reads PostgreSQL', async () => {
  const { id: projectId } = await aProject(h, org);
  await setProjectQuota(h.ctx, projectId, { dailyRequestLimit: 1 });
  await expect(setProjectQuota(h.ctx, projectId, { dailyRequestLimit: 5, customResetDay: 99 })).rejects.toThrow();
  const engine = new QuotaCounters({ redis: h.ctx.redis, db: h.ctx.db, prefix: h.config.REDIS_PREFIX });
  const results = [];
  for (let i = 0; i < 2; i++) results.push((await engine.admit(projectId)).admitted);
  expect(results).toEqual([true, false]);
});
