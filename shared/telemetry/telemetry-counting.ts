// Counts one telemetry event by SPEC's dedup rules, exactly once even when its job is retried:
// view once per client, item and UTC day; install and favorite once per client and item ever (a PostgreSQL row);
// usage every time up to 1,000 per client, item and UTC day (MCP usage also per tool). Counted events add to a
// pending hash in Redis that the flush job moves to PostgreSQL in batches.
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { AppContext } from '../context.js';
import { telemetryOnceEvents } from '../db/schema/index.js';
import { utcDay } from '../time/utc-day.js';
import { counterField, telemetryKeys, toolField } from './telemetry-keys.js';

export type TelemetryEvent = {
  eventId: string;
  itemId: string;
  eventType: 'view' | 'install' | 'usage' | 'favorite';
  clientHash: string;
  toolName?: string | undefined;
  occurredAt: string;
};

export const USAGE_DAILY_CAP = 1_000;
const DEDUP_TTL_SECONDS = 2 * 86_400;

// KEYS: done marker, dedup key, pending hash. ARGV: kind (view|usage|once), ttl, counter field, usage cap, tool field.
const countScript = `
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[2]) then return 0 end
if ARGV[1] == 'view' then
  if not redis.call('SET', KEYS[2], '1', 'NX', 'EX', ARGV[2]) then return 0 end
elseif ARGV[1] == 'usage' then
  local n = redis.call('INCR', KEYS[2])
  if n == 1 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
  if n > tonumber(ARGV[4]) then return 0 end
end
redis.call('HINCRBY', KEYS[3], ARGV[3], 1)
if ARGV[5] ~= '' then redis.call('HINCRBY', KEYS[3], ARGV[5], 1) end
return 1
`;

type CountingRedis = Redis & { ockTelemetryCount(...args: string[]): Promise<number> };

function counting(redis: Redis): CountingRedis {
  const r = redis as CountingRedis;
  if (typeof r.ockTelemetryCount !== 'function')
    redis.defineCommand('ockTelemetryCount', { numberOfKeys: 3, lua: countScript });
  return r;
}

/** Returns whether the event counted (false when deduplicated, capped, or already counted by an earlier try). */
export async function countEvent(
  ctx: Pick<AppContext, 'db' | 'redis' | 'config'>,
  event: TelemetryEvent,
): Promise<boolean> {
  const keys = telemetryKeys(ctx.config.REDIS_PREFIX);
  const day = utcDay(new Date(event.occurredAt));
  const field = counterField(event.itemId, event.eventType);
  const tool = event.eventType === 'usage' && event.toolName ? toolField(event.itemId, event.toolName) : '';

  if (event.eventType === 'install' || event.eventType === 'favorite') {
    const inserted = await ctx.db
      .insert(telemetryOnceEvents)
      .values({
        itemId: event.itemId,
        eventType: event.eventType,
        clientHash: event.clientHash,
        eventId: event.eventId,
      })
      .onConflictDoNothing()
      .returning({ eventId: telemetryOnceEvents.eventId });
    if (inserted.length === 0) {
      // Either another event of this client came first, or an earlier try of this very job inserted the row and
      // stopped before counting: only the latter may count, and the done marker keeps it to once.
      const [row] = await ctx.db
        .select({ eventId: telemetryOnceEvents.eventId })
        .from(telemetryOnceEvents)
        .where(
          sql`${telemetryOnceEvents.itemId} = ${event.itemId} and ${telemetryOnceEvents.eventType} = ${event.eventType} and ${telemetryOnceEvents.clientHash} = ${event.clientHash}`,
        );
      if (row?.eventId !== event.eventId) return false;
    }
    const done = keys.done(event.eventId);
    return (
      (await counting(ctx.redis).ockTelemetryCount(
        done,
        done,
        keys.pending,
        'once',
        String(DEDUP_TTL_SECONDS),
        field,
        '0',
        '',
      )) === 1
    );
  }

  const dedup =
    event.eventType === 'view'
      ? keys.view(event.itemId, event.clientHash, day)
      : keys.usage(event.itemId, event.clientHash, day);
  const counted = await counting(ctx.redis).ockTelemetryCount(
    keys.done(event.eventId),
    dedup,
    keys.pending,
    event.eventType,
    String(DEDUP_TTL_SECONDS),
    field,
    String(USAGE_DAILY_CAP),
    tool,
  );
  return counted === 1;
}
