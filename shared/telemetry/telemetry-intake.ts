// The telemetry intake's Redis step for the events of one or many client addresses: per group (one request: its
// address and its events) the per-address sliding window, then per accepted event SPEC's dedup rule and its counter
// delta (view, usage), or its append to the once-events stream (install, favorite: checked once ever in PostgreSQL
// by the flush). Counted deltas wait in the pending hash that the telemetry flush moves to PostgreSQL every second.
// Group commit: the requests that arrive while a step is in flight are taken together in the next one (one Lua call,
// one reply), in arrival order; a lone request is sent at once, never held for a timer, and so is a call once it is
// full (INTAKE_CALL_MAX_EVENTS).
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { addressBucket } from '../rate-limit/address-bucket.js';
import { nextWindowMember } from '../rate-limit/window-member.js';
import { type GroupCall, submitToGroup } from '../redis/group-commit.js';
import { secondsUntilNextUtcMidnight, utcDay } from '../time/utc-day.js';
import { counterField, type TelemetryKeys, telemetryKeys, toolField } from './telemetry-keys.js';

export const USAGE_DAILY_CAP = 1_000;
/**
 * A dedup key names its UTC day, so its purpose ends with that day: it lives until the next midnight plus this
 * margin, which covers an API process whose clock lags the others (it would still write the day just gone).
 */
const DEDUP_AFTER_MIDNIGHT_SECONDS = 3_600;
const WINDOW_MS = 60_000;
/**
 * At most this many events in one Lua call (a group, i.e. one request, is never split: a batch request holds at most
 * 100 events), so one call never grows without bound and Redis is never held by one script for long.
 */
export const INTAKE_CALL_MAX_EVENTS = 100;
/** How long a sender's event id is remembered: a retry within it counts nothing (docs/telemetry.md). */
export const SENT_ID_TTL_SECONDS = 86_400;

/**
 * KEYS: 1 the pending hash, 2 the once stream, then per group its address's window and per event its dedup key (the
 * once stream again for install and favorite), followed by its sent-id key when the sender named the event
 * (`eventId`). ARGV: 1 limit (0: off), 2 window ms, 3 member base, 4 usage cap, then per group: its event count, its
 * dedup TTL, its key count, and per event: kind (view|usage|once), counter field, tool field ('' for none), once-event
 * JSON ('' for the others), '1' when a sent-id key follows its dedup key ('' when none). An event whose sent id was
 * taken in the last SENT_ID_TTL_SECONDS is a retry: it is taken (it fills the window, it is answered as recorded) and
 * counts nothing. The groups are taken in order, each exactly as if
 * alone (its window sees the groups before it; one clock reading serves the call). Returns per group {ms until the window has room (0 when all were
 * taken), accepted events}: the first ones fit the window, the rest are refused and count nothing.
 */
const intakeLua = `
local limit, window, base, cap, sentTtl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), ARGV[5]
local now = 0
if limit > 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local out, k, a, m = {}, 3, 6, 0
while a <= #ARGV do
  local n, ttl, nkeys = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  local wkey = KEYS[k]
  a, k = a + 3, k + 1
  local allowed, wait = n, 0
  if limit > 0 then
    redis.call('ZREMRANGEBYSCORE', wkey, '-inf', now - window)
    local count = redis.call('ZCARD', wkey)
    allowed = math.max(0, math.min(n, limit - count))
    for i = 1, allowed do
      m = m + 1
      redis.call('ZADD', wkey, now, base .. ':' .. m)
    end
    if allowed > 0 then redis.call('PEXPIRE', wkey, window) end
    if allowed < n then
      local total = count + allowed
      local edge = redis.call('ZRANGE', wkey, total - limit, total - limit, 'WITHSCORES')
      wait = math.max(1, tonumber(edge[2]) + window - now)
    end
  end
  local kk = k
  for i = 1, allowed do
    local e = a + (i - 1) * 5
    local kind, field, tool = ARGV[e], ARGV[e + 1], ARGV[e + 2]
    local key = KEYS[kk]
    kk = kk + 1
    local fresh = true
    if ARGV[e + 4] ~= '' then
      fresh = redis.call('SET', KEYS[kk], '1', 'NX', 'EX', sentTtl)
      kk = kk + 1
    end
    if not fresh then
      -- a retry of an event already taken: nothing more
    elseif kind == 'view' then
      if redis.call('SET', key, '1', 'NX', 'EX', ttl) then redis.call('HINCRBY', KEYS[1], field, 1) end
    elseif kind == 'usage' then
      local used = redis.call('INCR', key)
      if used == 1 then redis.call('EXPIRE', key, ttl) end
      if used <= cap then
        redis.call('HINCRBY', KEYS[1], field, 1)
        if tool ~= '' then redis.call('HINCRBY', KEYS[1], tool, 1) end
      end
    else
      redis.call('XADD', KEYS[2], '*', 'e', ARGV[e + 3])
    end
  end
  a, k = a + n * 5, k + nkeys
  out[#out + 1] = wait
  out[#out + 1] = allowed
end
return out
`;

export type IntakeEvent = {
  itemId: string;
  eventType: 'view' | 'install' | 'usage' | 'favorite';
  clientHash: string;
  /** MCP usage only. */
  toolName?: string | undefined;
  /** The once-event's id (install, favorite); drawn here when absent. */
  eventId?: string | undefined;
  /** The sender's event id hashed with the client and item (`eventId` of the API): a retry of it counts nothing. */
  sentId?: string | undefined;
};

type IntakeRedis = Redis & { ockTelemetryIntake(...args: string[]): Promise<number[]> };
const registered = new WeakSet<Redis>();

export function intakeCommands(redis: Redis): IntakeRedis {
  if (!registered.has(redis)) {
    redis.defineCommand('ockTelemetryIntake', { lua: intakeLua });
    registered.add(redis);
  }
  return redis as IntakeRedis;
}

export type IntakeSettings = { prefix: string; limitPerMinute: number };
type Taken = { accepted: number; retryAfterMs: number };

/** One request's share of a call: its keys and arguments. */
type Group = { keys: string[]; args: string[] };

function groupOf(keys: TelemetryKeys, address: string, events: IntakeEvent[], at: Date) {
  const day = utcDay(at);
  const groupKeys = [keys.rateLimit(addressBucket(address))];
  const args = [String(events.length), String(secondsUntilNextUtcMidnight(at) + DEDUP_AFTER_MIDNIGHT_SECONDS), ''];
  for (const e of events) {
    if (e.eventType === 'view' || e.eventType === 'usage') {
      groupKeys.push(
        e.eventType === 'view' ? keys.view(e.itemId, e.clientHash, day) : keys.usage(e.itemId, e.clientHash, day),
      );
      args.push(
        e.eventType,
        counterField(e.itemId, e.eventType),
        e.toolName ? toolField(e.itemId, e.toolName) : '',
        '',
      );
    } else {
      groupKeys.push(keys.once);
      const { sentId: _, ...once } = e;
      args.push('once', '', '', JSON.stringify({ ...once, eventId: e.eventId ?? randomUUID() }));
    }
    if (e.sentId) groupKeys.push(keys.sent(e.sentId));
    args.push(e.sentId ? '1' : '');
  }
  // The group's key count: the window, a dedup key per event and the sent-id keys.
  args[2] = String(groupKeys.length - 1);
  return { keys: groupKeys, args };
}

/** One call of the intake for the groups given, in order. */
function intakeCall(redis: Redis, settings: IntakeSettings): GroupCall<Group, Taken> {
  const commands = intakeCommands(redis);
  const { pending, once } = telemetryKeys(settings.prefix);
  return async (groups) => {
    const keys = [pending, once];
    const args = [
      String(settings.limitPerMinute),
      String(WINDOW_MS),
      nextWindowMember(),
      String(USAGE_DAILY_CAP),
      String(SENT_ID_TTL_SECONDS),
    ];
    for (const g of groups) {
      keys.push(...g.keys);
      args.push(...g.args);
    }
    const answers = await commands.ockTelemetryIntake(String(keys.length), ...keys, ...args);
    return groups.map((_, i) => ({ retryAfterMs: Number(answers[2 * i]), accepted: Number(answers[2 * i + 1]) }));
  };
}

/**
 * Takes the events of one address (the first ones that fit its window); returns how many were accepted. Taken in
 * one Redis step with the other requests waiting on this connection at the time (group commit): each group exactly
 * as if alone, in arrival order. A Redis error fails every request of that step with that same error.
 */
export function intake(
  redis: Redis,
  settings: IntakeSettings,
  address: string,
  events: IntakeEvent[],
  at: Date,
): Promise<Taken> {
  const group = groupOf(telemetryKeys(settings.prefix), address, events, at);
  const lane = `telemetry|${settings.limitPerMinute}|${settings.prefix}`;
  const makeCall = () => intakeCall(redis, settings);
  return submitToGroup(redis, lane, makeCall, INTAKE_CALL_MAX_EVENTS, group, events.length);
}
