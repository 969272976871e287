// The telemetry intake's one Redis step for one or many events of one client address: the per-address sliding
// window, then per accepted event SPEC's dedup rule and its counter delta (view, usage), or its append to the
// once-events stream (install, favorite: checked once ever in PostgreSQL by the flush). Counted deltas wait in the
// pending hash that the telemetry flush moves to PostgreSQL every second.
import type { Redis } from 'ioredis';
import { addressBucket } from '../rate-limit/address-bucket.js';
import { nextWindowMember } from '../rate-limit/window-member.js';
import { secondsUntilNextUtcMidnight, utcDay } from '../time/utc-day.js';
import { counterField, telemetryKeys, toolField } from './telemetry-keys.js';

export const USAGE_DAILY_CAP = 1_000;
/**
 * A dedup key names its UTC day, so its purpose ends with that day: it lives until the next midnight plus this
 * margin, which covers an API process whose clock lags the others (it would still write the day just gone).
 */
const DEDUP_AFTER_MIDNIGHT_SECONDS = 3_600;
const WINDOW_MS = 60_000;

/**
 * KEYS: 1 the address's window, 2 the pending hash, 3 the once stream, 3+i the dedup key of event i (the once stream
 * again for install and favorite). ARGV: 1 limit (0: off), 2 window ms, 3 member base, 4 dedup TTL, 5 usage cap, then
 * per event: kind (view|usage|once), counter field, tool field ('' for none), once-event JSON ('' for the others).
 * Returns {ms until the window has room (0 when all were taken), accepted events}: the first ones fit the window,
 * the rest are refused and count nothing.
 */
const intakeLua = `
local n = #KEYS - 3
local allowed, wait = n, 0
local limit = tonumber(ARGV[1])
if limit > 0 then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local window = tonumber(ARGV[2])
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
  local count = redis.call('ZCARD', KEYS[1])
  allowed = math.max(0, math.min(n, limit - count))
  for i = 1, allowed do redis.call('ZADD', KEYS[1], now, ARGV[3] .. ':' .. i) end
  if allowed > 0 then redis.call('PEXPIRE', KEYS[1], window) end
  if allowed < n then
    local total = count + allowed
    local edge = redis.call('ZRANGE', KEYS[1], total - limit, total - limit, 'WITHSCORES')
    wait = math.max(1, tonumber(edge[2]) + window - now)
  end
end
local ttl, cap = tonumber(ARGV[4]), tonumber(ARGV[5])
for i = 1, allowed do
  local a = 5 + (i - 1) * 4
  local kind, field, tool = ARGV[a + 1], ARGV[a + 2], ARGV[a + 3]
  local key = KEYS[3 + i]
  if kind == 'view' then
    if redis.call('SET', key, '1', 'NX', 'EX', ttl) then redis.call('HINCRBY', KEYS[2], field, 1) end
  elseif kind == 'usage' then
    local used = redis.call('INCR', key)
    if used == 1 then redis.call('EXPIRE', key, ttl) end
    if used <= cap then
      redis.call('HINCRBY', KEYS[2], field, 1)
      if tool ~= '' then redis.call('HINCRBY', KEYS[2], tool, 1) end
    end
  else
    redis.call('XADD', KEYS[3], '*', 'e', ARGV[a + 4])
  end
end
return {wait, allowed}
`;

export type IntakeEvent = {
  itemId: string;
  eventType: 'view' | 'install' | 'usage' | 'favorite';
  clientHash: string;
  /** MCP usage only. */
  toolName?: string | undefined;
  eventId: string;
};

type IntakeRedis = Redis & { ockTelemetryIntake(...args: string[]): Promise<[number, number]> };
const registered = new WeakSet<Redis>();

export function intakeCommands(redis: Redis): IntakeRedis {
  if (!registered.has(redis)) {
    redis.defineCommand('ockTelemetryIntake', { lua: intakeLua });
    registered.add(redis);
  }
  return redis as IntakeRedis;
}

/** Takes the events of one address in one Redis round trip; returns how many fit the window (the first ones). */
export async function intake(
  redis: Redis,
  settings: { prefix: string; limitPerMinute: number },
  address: string,
  events: IntakeEvent[],
  at: Date,
): Promise<{ accepted: number; retryAfterMs: number }> {
  const keys = telemetryKeys(settings.prefix);
  const day = utcDay(at);
  const eventKeys: string[] = [];
  const args: string[] = [];
  for (const e of events) {
    if (e.eventType === 'view' || e.eventType === 'usage') {
      eventKeys.push(
        e.eventType === 'view' ? keys.view(e.itemId, e.clientHash, day) : keys.usage(e.itemId, e.clientHash, day),
      );
      args.push(
        e.eventType,
        counterField(e.itemId, e.eventType),
        e.toolName ? toolField(e.itemId, e.toolName) : '',
        '',
      );
    } else {
      eventKeys.push(keys.once);
      args.push('once', '', '', JSON.stringify(e));
    }
  }
  const [wait, accepted] = await intakeCommands(redis).ockTelemetryIntake(
    String(3 + events.length),
    keys.rateLimit(addressBucket(address)),
    keys.pending,
    keys.once,
    ...eventKeys,
    String(settings.limitPerMinute),
    String(WINDOW_MS),
    nextWindowMember(),
    String(secondsUntilNextUtcMidnight(at) + DEDUP_AFTER_MIDNIGHT_SECONDS),
    String(USAGE_DAILY_CAP),
    ...args,
  );
  return { accepted: Number(accepted), retryAfterMs: Number(wait) };
}
