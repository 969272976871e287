// The telemetry flush (every second): the waiting install and favorite events are checked and counted
// (telemetry-once.ts), then the pending counter deltas move from Redis to PostgreSQL exactly once: the pending hash
// is renamed to a snapshot with an id, the snapshot is applied in one transaction that records the id, then the
// snapshot is dropped. A flush that dies midway is finished by the next one; a flush applied twice is refused by
// its id.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { catalogItems, mcpToolUsage, telemetryFlushes } from '../db/schema/index.js';
import { telemetryKeys } from './telemetry-keys.js';
import { writeOnceEvents } from './telemetry-once.js';

// KEYS: pending, flushing, flushing id. ARGV: a new id. Returns {id, field, value, ...} or {} when idle.
const snapshotScript = `
if redis.call('EXISTS', KEYS[2]) == 0 then
  if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
  redis.call('RENAME', KEYS[1], KEYS[2])
  redis.call('SET', KEYS[3], ARGV[1])
end
local out = {redis.call('GET', KEYS[3])}
for _, v in ipairs(redis.call('HGETALL', KEYS[2])) do table.insert(out, v) end
return out
`;

// KEYS: flushing, flushing id. ARGV: the applied id. Drops the snapshot only if it is still that one.
const dropScript = `
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[1], KEYS[2]) return 1 end
return 0
`;

type FlushRedis = Redis & {
  ockTelemetrySnapshot(...args: string[]): Promise<string[]>;
  ockTelemetryDrop(...args: string[]): Promise<number>;
};

export function telemetryFlushCommands(redis: Redis): FlushRedis {
  const r = redis as FlushRedis;
  if (typeof r.ockTelemetrySnapshot !== 'function') {
    redis.defineCommand('ockTelemetrySnapshot', { numberOfKeys: 3, lua: snapshotScript });
    redis.defineCommand('ockTelemetryDrop', { numberOfKeys: 2, lua: dropScript });
  }
  return r;
}

type Deltas = { view: number; install: number; usage: number; favorite: number };
const columns = {
  view: 'view_count',
  install: 'install_count',
  usage: 'usage_count',
  favorite: 'favorite_count',
} as const;

export async function flushCounters(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config'>,
): Promise<{ items: number; events: number; onceEvents: number }> {
  const onceEvents = await writeOnceEvents(ctx);
  const keys = telemetryKeys(ctx.config.REDIS_PREFIX);
  const reply = await telemetryFlushCommands(ctx.redis).ockTelemetrySnapshot(
    keys.pending,
    keys.flushing,
    keys.flushingId,
    randomUUID(),
  );
  if (reply.length === 0) return { items: 0, events: 0, onceEvents };
  const [flushId, ...pairs] = reply as [string, ...string[]];
  const items = new Map<string, Deltas>();
  const tools: { itemId: string; toolName: string; count: number }[] = [];
  let events = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    const [itemId, kind, ...rest] = (pairs[i] as string).split('|');
    const n = Number(pairs[i + 1]);
    if (!itemId || !kind || !Number.isSafeInteger(n)) continue;
    if (kind === 'tool') {
      tools.push({ itemId, toolName: rest.join('|'), count: n });
      continue;
    }
    const d = items.get(itemId) ?? { view: 0, install: 0, usage: 0, favorite: 0 };
    if (kind in d) d[kind as keyof Deltas] += n;
    items.set(itemId, d);
    events += n;
  }
  await ctx.db.transaction(async (tx) => {
    const fresh = await tx.insert(telemetryFlushes).values({ id: flushId }).onConflictDoNothing().returning();
    if (fresh.length === 0) return;
    for (const [itemId, d] of items) {
      await tx
        .update(catalogItems)
        .set({
          viewCount: sql`${sql.identifier(columns.view)} + ${d.view}`,
          installCount: sql`${sql.identifier(columns.install)} + ${d.install}`,
          usageCount: sql`${sql.identifier(columns.usage)} + ${d.usage}`,
          favoriteCount: sql`${sql.identifier(columns.favorite)} + ${d.favorite}`,
        })
        .where(eq(catalogItems.id, itemId));
    }
    // An item deleted since its events were counted is skipped rather than failing the whole batch.
    for (const t of tools) {
      await tx.execute(sql`
        insert into ${mcpToolUsage} (item_id, tool_name, usage_count)
        select ${t.itemId}, ${t.toolName}, ${t.count} where exists (select 1 from catalog_items where id = ${t.itemId})
        on conflict (item_id, tool_name) do update set usage_count = ${mcpToolUsage}.usage_count + excluded.usage_count`);
    }
  });
  await telemetryFlushCommands(ctx.redis).ockTelemetryDrop(keys.flushing, keys.flushingId, flushId);
  return { items: items.size, events, onceEvents };
}
