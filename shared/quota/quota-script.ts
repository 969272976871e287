// The Lua scripts of the quota engine, registered once per Redis connection with ioredis defineCommand.
// Every key of a project shares the hash tag `{<projectId>}`, so a script touches one cluster slot.
import type { Redis } from 'ioredis';

/** Seconds a window's counters outlive their last write: long enough for the rollover to persist them. */
export const dayCounterTtlSeconds = 8 * 86_400;
export const monthCounterTtlSeconds = 70 * 86_400;
export const settingsTtlSeconds = 3_600;

/**
 * KEYS[1] = the project's key base. ARGV = mode ('admit' | 'tokens' | 'read'), UTC day (YYYY-MM-DD),
 * UTC year, month (1-12), day of month, epoch minute, tokens, day TTL, month TTL.
 * Returns {'missing'} when the project's settings are not cached, else {outcome, monthWindowStart, ...}.
 * 'admit' checks, in the seed's order, daily requests, daily tokens, monthly requests, monthly tokens and
 * requests per minute, and only when all pass counts the request; a rejected request is not counted.
 */
const quotaLua = `
local base = KEYS[1]
local s = redis.call('HMGET', base .. ':settings', 'rd', 'enforce', 'dr', 'dt', 'mr', 'mt', 'rpm')
if not s[1] then return {'missing'} end
local rd = tonumber(s[1])
local y, m = tonumber(ARGV[3]), tonumber(ARGV[4])
if tonumber(ARGV[5]) < rd then
  m = m - 1
  if m == 0 then m = 12; y = y - 1 end
end
local monthStart = string.format('%04d-%02d-%02d', y, m, rd)
local dayKey = base .. ':d:' .. ARGV[2]
local monthKey = base .. ':m:' .. monthStart
local mode = ARGV[1]
local dayTtl, monthTtl = tonumber(ARGV[8]), tonumber(ARGV[9])
if mode == 'read' then
  local d = redis.call('HMGET', dayKey, 'r', 't')
  local mo = redis.call('HMGET', monthKey, 'r', 't')
  return {'usage', monthStart, d[1] or '0', d[2] or '0', mo[1] or '0', mo[2] or '0'}
end
if mode == 'tokens' then
  redis.call('HINCRBY', dayKey, 't', ARGV[7])
  redis.call('EXPIRE', dayKey, dayTtl)
  redis.call('HINCRBY', monthKey, 't', ARGV[7])
  redis.call('EXPIRE', monthKey, monthTtl)
  return {'recorded', monthStart}
end
local minuteKey = base .. ':rpm:' .. ARGV[6]
if s[2] == '1' then
  local d = redis.call('HMGET', dayKey, 'r', 't')
  local mo = redis.call('HMGET', monthKey, 'r', 't')
  local checks = {
    {'dailyRequests', s[3], d[1]},
    {'dailyTokens', s[4], d[2]},
    {'monthlyRequests', s[5], mo[1]},
    {'monthlyTokens', s[6], mo[2]},
    {'requestsPerMinute', s[7], redis.call('GET', minuteKey)},
  }
  for _, c in ipairs(checks) do
    local limit = tonumber(c[2])
    if limit >= 0 and tonumber(c[3] or '0') >= limit then return {'rejected', monthStart, c[1]} end
  end
end
local dr = redis.call('HINCRBY', dayKey, 'r', 1)
redis.call('EXPIRE', dayKey, dayTtl)
local mr = redis.call('HINCRBY', monthKey, 'r', 1)
redis.call('EXPIRE', monthKey, monthTtl)
redis.call('INCR', minuteKey)
redis.call('EXPIRE', minuteKey, 120)
local dt = redis.call('HGET', dayKey, 't') or '0'
local mt = redis.call('HGET', monthKey, 't') or '0'
return {'admitted', monthStart, tostring(dr), dt, tostring(mr), mt}
`;

/** Writes the settings hash only when it is absent, so a reader never overwrites a newer update. */
const primeSettingsLua = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
`;

export type QuotaCommands = {
  ockQuota(base: string, ...args: (string | number)[]): Promise<string[]>;
  ockQuotaPrimeSettings(key: string, ttlSeconds: number, ...fieldsAndValues: string[]): Promise<number>;
};

const registered = new WeakSet<Redis>();

export function quotaCommands(redis: Redis): Redis & QuotaCommands {
  if (!registered.has(redis)) {
    redis.defineCommand('ockQuota', { numberOfKeys: 1, lua: quotaLua });
    redis.defineCommand('ockQuotaPrimeSettings', { numberOfKeys: 1, lua: primeSettingsLua });
    registered.add(redis);
  }
  return redis as Redis & QuotaCommands;
}
