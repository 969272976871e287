// The release step's move of Redis keys from the layout before issue 16: live quota counters go under their
// organization's tag, unflushed telemetry counts join the new pending hash, and a second run moves nothing.
import { quotaCountersOf } from '../../shared/organizations/project-quotas.js';
import { projectKeyBase } from '../../shared/quota/quota-counters.js';
import { utcDay } from '../../shared/quota/quota-windows.js';
import { moveToTaggedKeys } from '../../shared/redis/tagged-key-move.js';
import { telemetryKeys } from '../../shared/telemetry/telemetry-keys.js';
import { createHarness, type Harness } from '../support/harness.js';
import { anOrganization, aProject } from '../support/org-fixtures.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it('moves the old quota counters and telemetry counts once', async () => {
  const org = await anOrganization(h);
  const project = await aProject(h, org);
  const now = new Date();
  const old = `${h.config.REDIS_PREFIX}:quota:{${project.id}}`;
  const monthStart = `${utcDay(now).slice(0, 8)}01`;
  await h.ctx.redis.hset(`${old}:d:${utcDay(now)}`, 'r', 7, 't', 700);
  await h.ctx.redis.hset(`${old}:m:${monthStart}`, 'r', 9, 't', 900);
  await h.ctx.redis.hset(`${old}:settings`, 'rd', 1);
  await h.ctx.redis.hset(`${h.config.REDIS_PREFIX}:tel:pending`, 'item-a|view', 3);

  expect(await moveToTaggedKeys(h.ctx)).toEqual({ quotaKeys: 2, telemetryFields: 1 });
  const usage = await quotaCountersOf(h.ctx).readUsage(project.id);
  expect(usage.day).toMatchObject({ requestCount: 7, tokenCount: 700 });
  expect(usage.month).toMatchObject({ requestCount: 9, tokenCount: 900 });
  expect(await h.ctx.redis.hget(telemetryKeys(h.config.REDIS_PREFIX).pending, 'item-a|view')).toBe('3');
  expect(await h.ctx.redis.exists(`${old}:d:${utcDay(now)}`, `${old}:settings`)).toBe(0);
  // The old keys had no lifetime left to copy (PTTL -1 here; -2 when one expires between the reads): the moved ones
  // get their kind's, since nothing refreshes a counter's lifetime after the write that creates it.
  const base = projectKeyBase(h.config.REDIS_PREFIX, org.id, project.id);
  for (const moved of [`${base}:d:${utcDay(now)}`, `${base}:m:${monthStart}`]) {
    expect(await h.ctx.redis.ttl(moved)).toBeGreaterThan(0);
  }

  expect(await moveToTaggedKeys(h.ctx)).toEqual({ quotaKeys: 0, telemetryFields: 0 });
  expect((await quotaCountersOf(h.ctx).readUsage(project.id)).day.requestCount).toBe(7);
});
