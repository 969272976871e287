// Verified credentials cached in Redis, read together with the account daily quota in ONE atomic round trip.
// Invalidation deletes the entry and leaves a short tombstone so a lookup racing with the change cannot
// re-cache the old state: a disabled or deleted key fails on the very next request, in every API process.
import type { Redis } from 'ioredis';
import { dropLocalCredentials, invalidationChannel } from './local-credentials.js';

const RECORD_TTL_SECONDS = 600;
const TOMBSTONE_SECONDS = 30;
const COUNTER_TTL_SECONDS = 4 * 24 * 3600;

export type CachedCredential = {
  accountId: string;
  kind: 'api-key' | 'session';
  /** api key id or session id */
  credentialId: string;
  projectId?: string;
  /** epoch ms; sessions only */
  expiresAt?: number;
};

export type CachedAccount = { roles: string[]; dailyQuota: number };

export type AdmitResult =
  | { outcome: 'miss' }
  /** No such credential; `previousChecked`: not under SECRET_KEY_PREVIOUS's hash either (secret-rotation.ts). */
  | { outcome: 'unknown'; previousChecked: boolean }
  | { outcome: 'expired' }
  | {
      outcome: 'ok' | 'exceeded';
      credential: CachedCredential;
      roles: string[];
      limit: number;
      used: number;
    };

/**
 * Lua: moves a key counter's last use up to `at`, never down. One rule for both writers (an /api/v1 call, a gateway
 * call from the ledger), so a process whose clock is behind never moves it back.
 */
const raiseLastUsedAt = (counter: string, at: string) =>
  `if tonumber(${at}) > tonumber(redis.call('HGET', ${counter}, 'lastUsedAt') or '0') then redis.call('HSET', ${counter}, 'lastUsedAt', ${at}) end`;

// The counting part shared by both entry scripts: expects accountId, kind, credId, projectId, roles, limit.
const countBody = `
local prefix = ARGV[1]
local counter = prefix .. ':dq:' .. accountId .. ':' .. ARGV[2]
local used = tonumber(redis.call('GET', counter) or '0')
local outcome = 'ok'
if ARGV[3] == '1' then
  if used >= limit then
    outcome = 'exceeded'
  else
    used = redis.call('INCR', counter)
    if used == 1 then
      redis.call('EXPIRE', counter, ARGV[5])
      redis.call('SADD', prefix .. ':dq-active:' .. ARGV[2], accountId)
      redis.call('EXPIRE', prefix .. ':dq-active:' .. ARGV[2], ARGV[5])
    end
    if kind == 'api-key' then
      local keyCounter = prefix .. ':dk:' .. credId .. ':' .. ARGV[2]
      local n = redis.call('HINCRBY', keyCounter, 'count', 1)
      ${raiseLastUsedAt('keyCounter', 'ARGV[4]')}
      if n == 1 then
        redis.call('EXPIRE', keyCounter, ARGV[5])
        redis.call('SADD', prefix .. ':dk-active:' .. ARGV[2], credId)
        redis.call('EXPIRE', prefix .. ':dk-active:' .. ARGV[2], ARGV[5])
      end
    end
  end
end
return {outcome, accountId, kind, credId, projectId, roles, tostring(limit), tostring(used)}
`;

// From the cache. KEYS[1] credential record. ARGV: prefix, day, consume (1|0), nowMs, counterTtl.
const admitScript = `
local cred = redis.call('HMGET', KEYS[1], 'accountId', 'kind', 'credentialId', 'projectId', 'expiresAt', 'missing')
if cred[6] then return {'unknown', cred[6]} end
if not cred[1] then return {'miss'} end
if cred[5] and cred[5] ~= '' and tonumber(cred[5]) <= tonumber(ARGV[4]) then return {'expired'} end
local acct = redis.call('HMGET', ARGV[1] .. ':acct:' .. cred[1], 'roles', 'dailyQuota')
if not acct[2] then return {'miss'} end
local accountId, kind, credId, projectId, roles = cred[1], cred[2], cred[3], cred[4] or '', acct[1] or ''
local limit = tonumber(acct[2])
${countBody}`;

// From values the caller read from PostgreSQL (cache miss). ARGV: prefix, day, consume, nowMs, counterTtl,
// accountId, kind, credentialId, projectId, roles, dailyQuota.
const admitInlineScript = `
local accountId, kind, credId, projectId, roles = ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10]
local limit = tonumber(ARGV[11])
${countBody}`;

// KEYS[1] record, KEYS[2] tombstone. ARGV: ttl, then field/value pairs. Refuses to cache over a tombstone.
const fillScript = `
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('EXPIRE', KEYS[1], ARGV[1])
return 1
`;

// A key's last use recorded beside its daily counter, never moved back, for the rollover to persist (a gateway call's
// last use, from the ledger writer). KEYS[1] key counter, KEYS[2] the day's active keys. ARGV: atMs, keyId, ttl.
const lastUseScript = `
${raiseLastUsedAt('KEYS[1]', 'ARGV[1]')}
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
`;

type ScriptedRedis = Redis & {
  ockLastUse(counter: string, active: string, at: string, keyId: string, ttl: string): Promise<number>;
  ockAdmit(key: string, prefix: string, day: string, consume: string, now: string, ttl: string): Promise<string[]>;
  ockAdmitInline(...args: string[]): Promise<string[]>;
  ockFill(key: string, tombstone: string, ...args: string[]): Promise<number>;
};

export function credentialCommands(redis: Redis): ScriptedRedis {
  const r = redis as ScriptedRedis;
  if (typeof r.ockAdmit !== 'function') {
    redis.defineCommand('ockAdmit', { numberOfKeys: 1, lua: admitScript });
    redis.defineCommand('ockAdmitInline', { numberOfKeys: 0, lua: admitInlineScript });
    redis.defineCommand('ockFill', { numberOfKeys: 2, lua: fillScript });
    redis.defineCommand('ockLastUse', { numberOfKeys: 2, lua: lastUseScript });
  }
  return r;
}

export class CredentialCache {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  credentialKey = (tokenHash: string) => `${this.prefix}:cred:${tokenHash}`;
  accountKey = (accountId: string) => `${this.prefix}:acct:${accountId}`;
  dailyCounterKey = (accountId: string, day: string) => `${this.prefix}:dq:${accountId}:${day}`;
  keyCounterKey = (keyId: string, day: string) => `${this.prefix}:dk:${keyId}:${day}`;
  activeAccountsKey = (day: string) => `${this.prefix}:dq-active:${day}`;
  activeKeysKey = (day: string) => `${this.prefix}:dk-active:${day}`;

  async admit(tokenHash: string, day: string, consume: boolean, nowMs: number): Promise<AdmitResult> {
    const reply = await credentialCommands(this.redis).ockAdmit(
      this.credentialKey(tokenHash),
      this.prefix,
      day,
      consume ? '1' : '0',
      String(nowMs),
      String(COUNTER_TTL_SECONDS),
    );
    return parseAdmitReply(reply);
  }

  /** Counts against the quota with values read from PostgreSQL, for lookups that could not use the cache. */
  async admitUncached(
    credential: CachedCredential,
    account: CachedAccount,
    day: string,
    consume: boolean,
    nowMs: number,
  ): Promise<AdmitResult> {
    const reply = await credentialCommands(this.redis).ockAdmitInline(
      this.prefix,
      day,
      consume ? '1' : '0',
      String(nowMs),
      String(COUNTER_TTL_SECONDS),
      credential.accountId,
      credential.kind,
      credential.credentialId,
      credential.projectId ?? '',
      account.roles.join(','),
      String(account.dailyQuota),
    );
    return parseAdmitReply(reply);
  }

  /**
   * Moves each key's last use (epoch ms) up in the day's counters, never down; the listing reads it from there and the
   * daily rollover persists it to the key's row, so no writer but the rollover locks many key rows at once.
   */
  async recordLastUse(lastUse: Map<string, number>, day: string): Promise<void> {
    if (lastUse.size === 0) return;
    credentialCommands(this.redis);
    // One write for the batch's keys (the workers' connection does not auto-pipeline).
    const pipeline = this.redis.pipeline() as ReturnType<Redis['pipeline']> & Pick<ScriptedRedis, 'ockLastUse'>;
    const active = this.activeKeysKey(day);
    for (const [keyId, at] of lastUse) {
      pipeline.ockLastUse(this.keyCounterKey(keyId, day), active, String(at), keyId, String(COUNTER_TTL_SECONDS));
    }
    const failed = ((await pipeline.exec()) ?? []).find(([err]) => err);
    if (failed) throw failed[0];
  }

  /** Caches both records; false when a recent invalidation forbids it (the caller then counts uncached). */
  async fill(tokenHash: string, credential: CachedCredential, account: CachedAccount): Promise<boolean> {
    const filledAccount = await this.fillAccount(credential.accountId, account);
    const filledCredential = await this.fillCredential(tokenHash, credential);
    return filledAccount && filledCredential;
  }

  async fillCredential(tokenHash: string, credential: CachedCredential): Promise<boolean> {
    return this.fillRecord(tokenHash, RECORD_TTL_SECONDS, [
      'accountId',
      credential.accountId,
      'kind',
      credential.kind,
      'credentialId',
      credential.credentialId,
      'projectId',
      credential.projectId ?? '',
      'expiresAt',
      credential.expiresAt ? String(credential.expiresAt) : '',
    ]);
  }

  /**
   * Caches a token as unknown for a minute. Its `missing` field is `1` when it was looked up under SECRET_KEY's hash
   * alone, `previous` when under SECRET_KEY_PREVIOUS's too: during a rotation, a process that reads `1` looks again
   * (secret-rotation.ts).
   */
  fillMissing(tokenHash: string, { previousChecked }: { previousChecked: boolean }): Promise<boolean> {
    return this.fillRecord(tokenHash, 60, ['missing', previousChecked ? 'previous' : '1']);
  }

  private async fillRecord(tokenHash: string, ttl: number, fields: string[]): Promise<boolean> {
    const key = this.credentialKey(tokenHash);
    return 1 === (await credentialCommands(this.redis).ockFill(key, `${key}:gone`, String(ttl), ...fields));
  }

  async fillAccount(accountId: string, account: CachedAccount): Promise<boolean> {
    return (
      1 ===
      (await credentialCommands(this.redis).ockFill(
        this.accountKey(accountId),
        `${this.accountKey(accountId)}:gone`,
        String(RECORD_TTL_SECONDS),
        'roles',
        account.roles.join(','),
        'dailyQuota',
        String(account.dailyQuota),
      ))
    );
  }

  async invalidateCredentials(tokenHashes: string[]): Promise<void> {
    if (tokenHashes.length === 0) return;
    dropLocalCredentials(this.redis, tokenHashes);
    const multi = this.redis.multi();
    for (const hash of tokenHashes) {
      multi.set(`${this.credentialKey(hash)}:gone`, '1', 'EX', TOMBSTONE_SECONDS);
      multi.del(this.credentialKey(hash));
    }
    multi.publish(invalidationChannel(this.prefix), tokenHashes.join(','));
    await multi.exec();
    dropLocalCredentials(this.redis, tokenHashes);
  }

  async invalidateAccount(accountId: string): Promise<void> {
    dropLocalCredentials(this.redis, ['*']);
    await this.redis
      .multi()
      .set(`${this.accountKey(accountId)}:gone`, '1', 'EX', TOMBSTONE_SECONDS)
      .del(this.accountKey(accountId))
      .publish(invalidationChannel(this.prefix), '*')
      .exec();
    dropLocalCredentials(this.redis, ['*']);
  }
}

function parseAdmitReply(reply: string[]): AdmitResult {
  const [outcome, accountId, kind, credentialId, projectId, rolesCsv, limit, used] = reply;
  // {'unknown', the entry's `missing` value}
  if (outcome === 'unknown') return { outcome, previousChecked: reply[1] === 'previous' };
  if (outcome === 'miss' || outcome === 'expired') return { outcome };
  return {
    outcome: outcome as 'ok' | 'exceeded',
    credential: {
      accountId: accountId as string,
      kind: kind as CachedCredential['kind'],
      credentialId: credentialId as string,
      ...(projectId ? { projectId } : {}),
    },
    roles: rolesCsv ? rolesCsv.split(',') : [],
    limit: Number(limit),
    used: Number(used),
  };
}
