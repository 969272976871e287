// The Lua steps of the wallet mirror (docs/wallet.md, "The Redis mirror"). Every key of a step carries the
// organization's hash tag: the mirror hash `w`, the holds hash `h` with their expiry set `hx`, the ledger stream `l`,
// and the project quota keys under `qb` (derived in the script from their base, in the same slot).
//
// The mirror hash: `base` = PostgreSQL's balance at record sequence `seq`; `pend` = what settlements charged whose
// ledger entries PostgreSQL has not acknowledged yet; `frz` = held reservations; `act` = 1 when the wallet is active.
// Available = base − pend − frz. Money fields change only by HINCRBY (exact 64-bit integers); Lua compares them as
// doubles, exact below 2^53 micro-units (about 9 billion USD).
import { quotaLua } from '../quota/quota-script.js';

const common = `
local function num(v) return tonumber(v or '0') or 0 end
local function int(x) return string.format('%.0f', x) end
-- Holds whose time came: a held amount goes back to the available balance and the hold becomes 'x' (a late
-- settlement then charges the available balance) until keepMs later, when the marker is dropped. Returns how many
-- holds it ended and the amount that left 'frz'.
local function expireHolds(w, h, hx, now, limit, keepMs)
  local due = redis.call('ZRANGEBYSCORE', hx, '-inf', now, 'LIMIT', 0, limit)
  local released = 0
  for _, id in ipairs(due) do
    local v = redis.call('HGET', h, id)
    if v and v ~= 'x' then
      if v ~= '0' then
        redis.call('HINCRBY', w, 'frz', '-' .. v)
        released = released + num(v)
      end
      redis.call('HSET', h, id, 'x')
      redis.call('ZADD', hx, now + keepMs, id)
    else
      redis.call('HDEL', h, id)
      redis.call('ZREM', hx, id)
    end
  end
  return #due, released
end
-- The charged amount of a ledger stream entry (field 'c').
local function chargedOf(fields)
  for i = 1, #fields, 2 do
    if fields[i] == 'c' then return fields[i + 1] end
  end
  return '0'
end
`;

/**
 * Admission, a function of the keys w, h, hx, l, qb and its arguments ARGV: 1 hold id (the request log id), 2 amount to hold, 3 hold expiry (epoch
 * ms), 4 now (epoch ms), 5 backlog limit, 6 UTC day, 7 year, 8 month, 9 day of month, 10 epoch minute, 11 day TTL,
 * 12 month TTL, 13 how long an expired hold's marker is kept (ms), 14 '1' when a request that holds nothing still needs
 * a wallet with money (count_tokens: free, but not for an organization that has none).
 * Returns {'missing', mirror present 0|1, quota settings present 0|1}, {'backlog', n}, {'inactive'}, {'balance'},
 * {'quota', limit, monthStart}, or {'admitted', replayed 0|1}. Nothing is written unless admitted.
 */
const admitFunction = `
local function admit(w, h, hx, l, qb, ARGV)
local s = quotaSettings(qb)
-- The mirror in one read ('base' is there whenever the mirror is: syncLua writes its fields together).
local v = redis.call('HMGET', w, 'base', 'pend', 'frz', 'act')
local hasMirror = v[1] ~= false
if not hasMirror or not s[1] then return {'missing', hasMirror and '1' or '0', s[1] and '1' or '0'} end
local now = tonumber(ARGV[4])
local _, released = expireHolds(w, h, hx, now, 20, tonumber(ARGV[13]))
if redis.call('HEXISTS', h, ARGV[1]) == 1 then return {'admitted', '1'} end
local backlog = redis.call('XLEN', l)
if backlog >= tonumber(ARGV[5]) then return {'backlog', tostring(backlog)} end
local amount = tonumber(ARGV[2])
if amount > 0 or ARGV[14] == '1' then
  if v[4] ~= '1' then return {'inactive'} end
  local free = num(v[1]) - num(v[2]) - (num(v[3]) - released)
  if free <= 0 or free < amount then return {'balance'} end
end
local monthStart, dayKey, monthKey = quotaWindow(qb, s, ARGV[6], ARGV[7], ARGV[8], ARGV[9])
local minuteKey = qb .. ':rpm:' .. ARGV[10]
local rejected = quotaRejection(s, dayKey, monthKey, minuteKey)
if rejected then return {'quota', rejected, monthStart} end
quotaCount(dayKey, monthKey, minuteKey, tonumber(ARGV[11]), tonumber(ARGV[12]))
if amount > 0 then redis.call('HINCRBY', w, 'frz', ARGV[2]) end
redis.call('HSET', h, ARGV[1], ARGV[2])
redis.call('ZADD', hx, ARGV[3], ARGV[1])
return {'admitted', '0'}
end
`;

/**
 * Settlement, a function of the keys w, h, hx, l, qb and its arguments ARGV: 1 hold id, 2 actual cost, 3 tokens, 4 the ledger entry (JSON), 5 UTC
 * day, 6 year, 7 month, 8 day of month, 9 day TTL, 10 month TTL.
 * Releases the hold, charges min(actual, available) (never below zero), adds the tokens to the project's counters
 * and appends the entry with what it charged ('c') and whether its hold was gone ('r': a replay, or a hold lost
 * with Redis data: then nothing is charged or counted, and PostgreSQL keeps the first entry of the request).
 * Returns {'missing', mirror present, settings present} or {'settled', charged, stream length, replayed 0|1}.
 */
const settleFunction = `
local function settle(w, h, hx, l, qb, ARGV)
local v = redis.call('HMGET', w, 'base', 'pend', 'frz')
if v[1] == false then return {'missing', '0', '1'} end
local hold = redis.call('HGET', h, ARGV[1])
local tokens = tonumber(ARGV[3])
local s
if hold and tokens > 0 then
  s = quotaSettings(qb)
  if not s[1] then return {'missing', '1', '0'} end
end
local charged = '0'
if hold then
  local frz = num(v[3])
  if hold ~= 'x' and hold ~= '0' then
    redis.call('HINCRBY', w, 'frz', '-' .. hold)
    frz = frz - num(hold)
  end
  local free = num(v[1]) - num(v[2]) - frz
  local actual = tonumber(ARGV[2])
  if actual > 0 and free > 0 then
    if actual <= free then charged = ARGV[2] else charged = int(free) end
    redis.call('HINCRBY', w, 'pend', charged)
  end
  redis.call('HDEL', h, ARGV[1])
  redis.call('ZREM', hx, ARGV[1])
  if tokens > 0 then
    local _, dayKey, monthKey = quotaWindow(qb, s, ARGV[5], ARGV[6], ARGV[7], ARGV[8])
    quotaTokens(dayKey, monthKey, ARGV[3], tonumber(ARGV[9]), tonumber(ARGV[10]))
  end
end
local replayed = hold and '0' or '1'
redis.call('XADD', l, '*', 'e', ARGV[4], 'c', charged, 'r', replayed)
return {'settled', charged, tostring(redis.call('XLEN', l)), replayed}
end
`;

/**
 * Admissions and settlements of one organization, taken one by one in the order given, each exactly as if alone (the
 * group commit of mirror-steps.ts). KEYS: w, h, hx, l, then per step the project's quota key base qb. ARGV: per step
 * 'a' (admit) or 's' (settle), its argument count, then its arguments. Returns one reply per step, in order.
 */
export const stepsLua = `${common}${quotaLua}${admitFunction}${settleFunction}
local w, h, hx, l = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local out, a, k = {}, 1, 5
while a <= #ARGV do
  local kind, n = ARGV[a], tonumber(ARGV[a + 1])
  local args = {}
  for i = 1, n do args[i] = ARGV[a + 1 + i] end
  if kind == 'a' then out[#out + 1] = admit(w, h, hx, l, KEYS[k], args)
  else out[#out + 1] = settle(w, h, hx, l, KEYS[k], args) end
  a, k = a + 2 + n, k + 1
end
return out
`;

/** Creates the mirror at PostgreSQL's (balance, seq, act), its pending and frozen amounts summed from the stream and
 * the holds: what a missing mirror is loaded as, and what a rebuilt one starts from. */
const createMirror = `
local function createMirror(w, h, l, balance, seq, act)
  local pend = 0
  for _, e in ipairs(redis.call('XRANGE', l, '-', '+')) do pend = pend + num(chargedOf(e[2])) end
  local frz = 0
  local holds = redis.call('HGETALL', h)
  for i = 2, #holds, 2 do
    if holds[i] ~= 'x' then frz = frz + num(holds[i]) end
  end
  redis.call('HSET', w, 'base', balance, 'seq', seq, 'act', act, 'pend', int(pend), 'frz', int(frz))
end
`;

/**
 * Brings the mirror to PostgreSQL's state. KEYS: w, h, l. ARGV: 1 balance, 2 record sequence, 3 active (1|0), read
 * together in one PostgreSQL snapshot. A missing mirror is created, its pending and frozen amounts summed from the
 * stream and the holds; an existing one takes the state only when it is newer (a higher sequence), so steps that
 * arrive out of order never move it back. Returns {base, seq, pend, frz, act}.
 */
export const syncLua = `${common}${createMirror}
local w, h, l = KEYS[1], KEYS[2], KEYS[3]
if redis.call('EXISTS', w) == 0 then
  createMirror(w, h, l, ARGV[1], ARGV[2], ARGV[3])
elseif tonumber(ARGV[2]) > num(redis.call('HGET', w, 'seq')) then
  redis.call('HSET', w, 'base', ARGV[1], 'seq', ARGV[2], 'act', ARGV[3])
elseif tonumber(ARGV[2]) == num(redis.call('HGET', w, 'seq')) then
  redis.call('HSET', w, 'act', ARGV[3])
end
return redis.call('HMGET', w, 'base', 'seq', 'pend', 'frz', 'act')
`;

/**
 * Rebuilds a mirror that is ahead of PostgreSQL (a database restored from a backup, or failed over to a replica that
 * lacked the last commits: PostgreSQL's sequence never goes back otherwise). KEYS: w, h, l. ARGV: 1 balance, 2 record
 * sequence, 3 active, read from PostgreSQL after 4, the mirror's sequence seen ahead of it. Only a mirror still at
 * that sequence is rebuilt (one moved since was brought there by a newer commit); it restarts from PostgreSQL's state
 * with the stream's and the holds' amounts, as a missing one is loaded. Returns 1 when rebuilt.
 */
export const rebuildLua = `${common}${createMirror}
local w, h, l = KEYS[1], KEYS[2], KEYS[3]
if redis.call('HGET', w, 'seq') ~= ARGV[4] then return 0 end
createMirror(w, h, l, ARGV[1], ARGV[2], ARGV[3])
return 1
`;

/**
 * The ledger writer's acknowledgement, after its PostgreSQL transaction committed. KEYS: w, l. ARGV: 1 balance and
 * 2 record sequence after the commit, 3… the stream ids written. Each entry still in the stream is deleted and its
 * charge leaves `pend`; then the mirror takes the committed state if it is newer. Running it twice changes nothing.
 * Returns how many entries it deleted.
 */
export const ackLua = `${common}
local w, l = KEYS[1], KEYS[2]
local hasMirror = redis.call('EXISTS', w) == 1
local deleted = 0
for i = 3, #ARGV do
  local found = redis.call('XRANGE', l, ARGV[i], ARGV[i])
  if #found > 0 then
    local c = chargedOf(found[1][2])
    deleted = deleted + redis.call('XDEL', l, ARGV[i])
    if hasMirror and c ~= '0' then redis.call('HINCRBY', w, 'pend', '-' .. c) end
  end
end
if hasMirror and tonumber(ARGV[2]) > num(redis.call('HGET', w, 'seq')) then
  redis.call('HSET', w, 'base', ARGV[1], 'seq', ARGV[2])
end
return deleted
`;

/**
 * Keeps a hold of a request still in flight. KEYS: h, hx. ARGV: 1 hold id, 2 new expiry (epoch ms). A hold that is
 * gone or already expired stays so (its money went back); an expiry only ever moves later. Returns 1 when kept.
 */
export const renewLua = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v or v == 'x' then return 0 end
redis.call('ZADD', KEYS[2], 'GT', ARGV[2], ARGV[1])
return 1
`;

/** The sweep's expiry of one organization's holds. KEYS: w, h, hx. ARGV: now, limit, marker keep (ms). */
export const expireLua = `${common}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local ended = expireHolds(KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
return ended
`;

/**
 * One consistent reading for the reconciliation. KEYS: w, h, l. Returns {present 0|1, base, seq, pend, frz, act,
 * sum of the stream's charges, stream length, sum of held amounts, holds}.
 */
export const auditLua = `${common}
local w, h, l = KEYS[1], KEYS[2], KEYS[3]
local v = redis.call('HMGET', w, 'base', 'seq', 'pend', 'frz', 'act')
local streamed = 0
local entries = redis.call('XRANGE', l, '-', '+')
for _, e in ipairs(entries) do streamed = streamed + num(chargedOf(e[2])) end
local held, holds = 0, 0
local all = redis.call('HGETALL', h)
for i = 2, #all, 2 do
  if all[i] ~= 'x' then held = held + num(all[i]); holds = holds + 1 end
end
return {redis.call('EXISTS', w), v[1] or '0', v[2] or '0', v[3] or '0', v[4] or '0', v[5] or '0',
  int(streamed), #entries, int(held), holds}
`;
