// A release step for deployments made before the hot paths moved to hash-tagged keys (issue 16): the live quota
// counters of each project move under its organization's tag, and the telemetry counts not yet flushed join the new
// pending hash. Running it again finds nothing to move. Requests served by the old code between this step and the new
// code's start are counted in the old keys and lost (a few seconds of counts at most).
import { inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { projects, telemetryFlushes } from '../db/schema/index.js';
import { projectKeyBase } from '../quota/quota-counters.js';
import { dayCounterTtlSeconds, monthCounterTtlSeconds } from '../quota/quota-script.js';
import { telemetryKeys } from '../telemetry/telemetry-keys.js';

type Ctx = Pick<AppContext, 'db' | 'redis' | 'config' | 'logger'>;

export async function moveToTaggedKeys(ctx: Ctx): Promise<{ quotaKeys: number; telemetryFields: number }> {
  return { quotaKeys: await moveQuotaCounters(ctx), telemetryFields: await moveTelemetryPending(ctx) };
}

/** `<prefix>:quota:{<projectId>}:d:<day>` and `:m:<start>` hashes, added into the organization-tagged ones. */
async function moveQuotaCounters(ctx: Ctx): Promise<number> {
  const prefix = ctx.config.REDIS_PREFIX;
  const shape = /^.*:quota:\{([0-9a-f-]{36})\}:(d|m|rpm|settings)(?::(.+))?$/;
  const found: { key: string; projectId: string; rest: string; kind: string }[] = [];
  for await (const keys of ctx.redis.scanStream({ match: `${prefix}:quota:{*`, count: 1000 }) as AsyncIterable<
    string[]
  >) {
    for (const key of keys) {
      const m = shape.exec(key);
      if (m?.[1] && m[2]) found.push({ key, projectId: m[1], kind: m[2], rest: m[3] ? `${m[2]}:${m[3]}` : m[2] });
    }
  }
  if (found.length === 0) return 0;
  const organizationOf = new Map<string, string>();
  const ids = [...new Set(found.map((f) => f.projectId))];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await ctx.db
      .select({ id: projects.id, organizationId: projects.organizationId })
      .from(projects)
      .where(inArray(projects.id, ids.slice(i, i + 500)));
    for (const r of rows) organizationOf.set(r.id, r.organizationId);
  }
  let moved = 0;
  for (const f of found) {
    const organizationId = organizationOf.get(f.projectId);
    // Settings are primed again from PostgreSQL and a minute counter lives two minutes: only windows move.
    if (organizationId && (f.kind === 'd' || f.kind === 'm')) {
      const [counts, ttl] = await Promise.all([ctx.redis.hgetall(f.key), ctx.redis.pttl(f.key)]);
      const target = `${projectKeyBase(prefix, organizationId, f.projectId)}:${f.rest}`;
      const multi = ctx.redis.multi();
      for (const [field, value] of Object.entries(counts)) multi.hincrby(target, field, Number(value));
      // A key that expired between the two reads (PTTL -2) still gave its counts: the target gets its kind's lifetime,
      // since a counter's lifetime is set only by the write that creates it (shared/quota/quota-script.ts).
      const fallbackMs = 1_000 * (f.kind === 'd' ? dayCounterTtlSeconds : monthCounterTtlSeconds);
      multi.pexpire(target, ttl > 0 ? ttl : fallbackMs);
      multi.del(f.key);
      await multi.exec();
      moved += 1;
    } else {
      await ctx.redis.del(f.key);
    }
  }
  ctx.logger.info({ moved, found: found.length }, 'quota counters moved under their organization tags');
  return moved;
}

/** The old pending hash, and a snapshot the old flush took but never applied, join the new pending hash. */
async function moveTelemetryPending(ctx: Ctx): Promise<number> {
  const old = `${ctx.config.REDIS_PREFIX}:tel`;
  const { pending } = telemetryKeys(ctx.config.REDIS_PREFIX);
  let fields = 0;
  const snapshotId = await ctx.redis.get(`${old}:flushing:id`);
  const applied =
    snapshotId !== null &&
    (await ctx.db.select().from(telemetryFlushes).where(sql`${telemetryFlushes.id} = ${snapshotId}`)).length > 0;
  for (const key of [`${old}:pending`, ...(applied ? [] : [`${old}:flushing`])]) {
    const counts = await ctx.redis.hgetall(key);
    const multi = ctx.redis.multi();
    for (const [field, value] of Object.entries(counts)) multi.hincrby(pending, field, Number(value));
    multi.del(key);
    await multi.exec();
    fields += Object.keys(counts).length;
  }
  await ctx.redis.del(`${old}:flushing`, `${old}:flushing:id`);
  return fields;
}
