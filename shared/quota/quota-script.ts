// The Lua of the quota engine: functions shared by its own script (below) and the gateway's admission and
// settlement steps (shared/wallet/mirror-lua.ts), registered once per Redis connection with ioredis defineCommand.
// A project's keys live under its organization's hash tag (shared/redis/tagged-keys.ts), so a step touches one slot.
import type { Redis } from 'ioredis';

/** Seconds a window's counters live from the write that creates them: long enough for the rollover to persist them. */
export const dayCounterTtlSeconds = 8 * 86_400;
export const monthCounterTtlSeconds = 70 * 86_400;
export const settingsTtlSeconds = 3_600;

/**
 * Lua functions over a project's key base `qb`:
 * - quotaSettings(qb): the cached settings {rd, enforce, dr, dt, mr, mt, rpm}; s[1] is false when not cached.
 * - quotaWindow(qb, s, day, y, m, d): the month window start and the day and month counter keys at that instant.
 * - quotaRejection(s, dayKey, monthKey, minuteKey): the first limit reached, in the seed's order (daily requests,
 *   daily tokens, monthly requests, monthly tokens, requests per minute), or nil.
 * - quotaCount / quotaTokens: count an admitted request / add tokens; the write that creates a counter sets its lifetime.
 */
export const quotaLua = `
local function quotaSettings(qb)
  return redis.call('HMGET', qb .. ':settings', 'rd', 'enforce', 'dr', 'dt', 'mr', 'mt', 'rpm')
end
local function quotaWindow(qb, s, day, y, m, d)
  local rd = tonumber(s[1])
  y, m = tonumber(y), tonumber(m)
  if tonumber(d) < rd then
    m = m - 1
    if m == 0 then m = 12; y = y - 1 end
  end
  local monthStart = string.format('%04d-%02d-%02d', y, m, rd)
  return monthStart, qb .. ':d:' .. day, qb .. ':m:' .. monthStart
end
local function quotaRejection(s, dayKey, monthKey, minuteKey)
  if s[2] ~= '1' then return nil end
  local d = redis.call('HMGET', dayKey, 'r', 't')
  local mo = redis.call('HMGET', monthKey, 'r', 't')
  local checks = {
    {'dailyRequests', s[3], d[1]},
    {'dailyTokens', s[4], d[2]},
    {'monthlyRequests', s[5], mo[1]},
    {'monthlyTokens', s[6], mo[2]},
    {'requestsPerMinute', s[7], false},
  }
  for i, c in ipairs(checks) do
    local limit = tonumber(c[2])
    if limit >= 0 then
      local used = c[3]
      if i == 5 then used = redis.call('GET', minuteKey) end
      if tonumber(used or '0') >= limit then return c[1] end
    end
  end
  return nil
end
-- A counter's lifetime is set by the write that creates its field (the increment alone is then the field's value), so
-- every counter key gets one when it is created and the steady state spends no EXPIRE call per request.
local function quotaCount(dayKey, monthKey, minuteKey, dayTtl, monthTtl)
  local dr = redis.call('HINCRBY', dayKey, 'r', 1)
  if dr == 1 then redis.call('EXPIRE', dayKey, dayTtl) end
  local mr = redis.call('HINCRBY', monthKey, 'r', 1)
  if mr == 1 then redis.call('EXPIRE', monthKey, monthTtl) end
  if redis.call('INCR', minuteKey) == 1 then redis.call('EXPIRE', minuteKey, 120) end
  return dr, mr
end
local function quotaTokens(dayKey, monthKey, tokens, dayTtl, monthTtl)
  local n = tonumber(tokens)
  if redis.call('HINCRBY', dayKey, 't', tokens) == n then redis.call('EXPIRE', dayKey, dayTtl) end
  if redis.call('HINCRBY', monthKey, 't', tokens) == n then redis.call('EXPIRE', monthKey, monthTtl) end
end
`;

/**
 * KEYS[1] = the project's key base. ARGV = mode ('admit' | 'tokens' | 'read'), UTC day (YYYY-MM-DD),
 * UTC year, month (1-12), day of month, epoch minute, tokens, day TTL, month TTL.
 * Returns {'missing'} when the project's settings are not cached, else {outcome, monthWindowStart, ...}.
 * 'admit' checks every limit and only when all pass counts the request; a rejected request is not counted.
 */
const quotaScript = `${quotaLua}
local qb = KEYS[1]
local s = quotaSettings(qb)
if not s[1] then return {'missing'} end
local monthStart, dayKey, monthKey = quotaWindow(qb, s, ARGV[2], ARGV[3], ARGV[4], ARGV[5])
local mode = ARGV[1]
local dayTtl, monthTtl = tonumber(ARGV[8]), tonumber(ARGV[9])
if mode == 'read' then
  local d = redis.call('HMGET', dayKey, 'r', 't')
  local mo = redis.call('HMGET', monthKey, 'r', 't')
  return {'usage', monthStart, d[1] or '0', d[2] or '0', mo[1] or '0', mo[2] or '0'}
end
if mode == 'tokens' then
  quotaTokens(dayKey, monthKey, ARGV[7], dayTtl, monthTtl)
  return {'recorded', monthStart}
end
local minuteKey = qb .. ':rpm:' .. ARGV[6]
local rejected = quotaRejection(s, dayKey, monthKey, minuteKey)
if rejected then return {'rejected', monthStart, rejected} end
local dr, mr = quotaCount(dayKey, monthKey, minuteKey, dayTtl, monthTtl)
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
    redis.defineCommand('ockQuota', { numberOfKeys: 1, lua: quotaScript });
    redis.defineCommand('ockQuotaPrimeSettings', { numberOfKeys: 1, lua: primeSettingsLua });
    registered.add(redis);
  }
  return redis as Redis & QuotaCommands;
}
