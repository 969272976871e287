// The one rate limiter of the service: a sliding window per key in Redis. Each key is a sorted set of the attempts
// counted in the last window, scored by Redis's own clock (so every API process agrees), which makes "N in W" exact.
// One Lua step per attempt checks every key the attempt is limited by and, only when all have room, counts it in
// each: concurrent attempts can never slip past a limit between a check and a write. A set never holds more than
// its limit, and every key expires one window after its last write.
//
// Keys are `<REDIS_PREFIX>:rl:…`; on Redis Cluster a hash-tagged prefix (`{ockhub}`) keeps the keys of one attempt
// in one slot, as the script needs.
import type { Redis } from 'ioredis';
import { AppError } from '../errors/app-error.js';
import { nextWindowMember } from './window-member.js';

export type WindowLimit = { key: string; limit: number; windowMs: number };

/** An attempt that was counted: `forget` takes it back, e.g. when it turned out to be a success. */
export type Ticket = { member: string; keys: string[] };

export type Admission = { allowed: true; ticket: Ticket } | { allowed: false; retryAfterMs: number };

/**
 * KEYS = the window keys; ARGV[1] = this attempt's member, then per key: limit, window (ms).
 * Returns 0 when the attempt was counted in every key, else the milliseconds until every full key has room.
 */
const hitLua = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local wait = 0
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[i * 2])
  local window = tonumber(ARGV[i * 2 + 1])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    -- room for one more once the entries up to this one have left the window
    local edge = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    local free = tonumber(edge[2]) + window - now
    if free > wait then wait = free end
  end
end
if wait > 0 then return wait end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[1])
  redis.call('PEXPIRE', key, ARGV[i * 2 + 1])
end
return 0
`;

/** `<REDIS_PREFIX>:rl:<name>:<parts…>`; parts must not contain braces (only the prefix may carry a hash tag). */
export const windowKey = (prefix: string, name: string, ...parts: string[]) =>
  [`${prefix}:rl:${name}`, ...parts].join(':');

type LimiterRedis = Redis & { ockWindowHit(...keysAndArgs: (string | number)[]): Promise<number> };

const registered = new WeakSet<Redis>();

export function windowCommands(redis: Redis): LimiterRedis {
  if (!registered.has(redis)) {
    redis.defineCommand('ockWindowHit', { lua: hitLua });
    registered.add(redis);
  }
  return redis as LimiterRedis;
}

export class SlidingWindowLimiter {
  constructor(private readonly redis: Redis) {}

  /**
   * Counts one attempt against every limit (limits of 0 are off), or refuses it without counting anything. `member`
   * names the entry (default: a new unique one).
   */
  async hit(limits: WindowLimit[], member = nextWindowMember()): Promise<Admission> {
    const active = limits.filter((l) => l.limit > 0);
    if (active.length === 0) return { allowed: true, ticket: { member, keys: [] } };
    const args = active.flatMap((l) => [l.limit, l.windowMs]);
    const wait = Number(
      await windowCommands(this.redis).ockWindowHit(active.length, ...active.map((l) => l.key), member, ...args),
    );
    if (wait > 0) return { allowed: false, retryAfterMs: wait };
    return { allowed: true, ticket: { member, keys: active.map((l) => l.key) } };
  }

  /** Takes a counted attempt back from its keys and empties `reset` (both in one MULTI). */
  async forget(ticket: Ticket, reset: string[] = []): Promise<void> {
    const keep = ticket.keys.filter((k) => !reset.includes(k));
    const clearing = ticket.keys.filter((k) => reset.includes(k));
    if (keep.length === 0 && clearing.length === 0) return;
    const multi = this.redis.multi();
    for (const key of keep) multi.zrem(key, ticket.member);
    if (clearing.length > 0) multi.del(...clearing);
    await multi.exec();
  }
}

/** Seconds for a Retry-After header: whole seconds, at least 1. */
export const retryAfterSeconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

/** A limiter's refusal: 429 with the Retry-After of the time until the window has room. */
export const tooManyRequests = (code: string, message: string, retryAfterMs: number) =>
  new AppError(code, 429, message, { headers: { 'retry-after': retryAfterSeconds(retryAfterMs) } });
