// Turns a bearer token into a Principal and counts the account daily quota, in one Redis round trip when cached.
import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { accounts, apiKeys, consoleSessions } from '../db/schema/index.js';
import { AppError, unauthorized } from '../errors/app-error.js';
import { secondsUntilNextUtcMidnight, utcDay } from '../time/utc-day.js';
import { type AdmitResult, type CachedAccount, type CachedCredential, CredentialCache } from './credential-cache.js';
import { type LocalCredential, localCredentials } from './local-credentials.js';
import { isRole, type Principal } from './principal.js';
import { findRehashing } from './secret-rotation.js';
import { keyedHash, tokenKind } from './tokens.js';

export type Authentication = { principal: Principal; quota: { limit: number; remaining: number } };

type Loaded = { credential: CachedCredential; account: CachedAccount; tokenHash: string } | undefined;

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const keyRow = (ctx: AppContext, hash: string) =>
  ctx.db
    .select({ key: apiKeys, roles: accounts.roles, dailyQuota: accounts.dailyQuota })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.tokenHash, hash))
    .then(([row]) => row);

const sessionRow = (ctx: AppContext, hash: string) =>
  ctx.db
    .select({ session: consoleSessions, roles: accounts.roles, dailyQuota: accounts.dailyQuota })
    .from(consoleSessions)
    .innerJoin(accounts, eq(accounts.id, consoleSessions.accountId))
    .where(eq(consoleSessions.tokenHash, hash))
    .then(([row]) => row);

/**
 * `findRehashing`'s move of an API key's or a session's row from the previous key's hash to `hash`. A credential moved
 * is dropped from the caches under the previous hash (Redis and every process's
 * copy): a process still on the old SECRET_KEY then looks it up, finds nothing and refuses it, rather than serving a
 * copy that a later change (a disabled key, a revoked session) invalidates only under the new hash.
 */
const moveHash =
  (ctx: AppContext, table: typeof apiKeys | typeof consoleSessions, hash: string) => async (previousHash: string) => {
    const moved = await ctx.db
      .update(table)
      .set({ tokenHash: hash })
      .where(eq(table.tokenHash, previousHash))
      .returning({ id: table.id });
    if (moved.length === 0) return;
    await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateCredentials([previousHash]);
  };

/** The credential stored under `hash`, or, during a rotation, under the previous key's hash (moved to `hash`). */
async function loadFromDatabase(
  ctx: AppContext,
  kind: 'api-key' | 'session',
  token: string,
  hash: string,
  now: Date,
): Promise<Loaded> {
  const hashUnder = (secret: string) => keyedHash(secret, token);
  if (kind === 'api-key') {
    const row = await findRehashing(ctx.config, hashUnder, () => keyRow(ctx, hash), moveHash(ctx, apiKeys, hash));
    if (!row) return undefined;
    if (row.key.status !== 'enabled' || !sameHash(row.key.tokenHash, hash)) return undefined;
    return {
      tokenHash: hash,
      credential: {
        accountId: row.key.accountId,
        kind,
        credentialId: row.key.id,
        ...(row.key.projectId ? { projectId: row.key.projectId } : {}),
      },
      account: { roles: row.roles, dailyQuota: row.dailyQuota },
    };
  }
  const row = await findRehashing(
    ctx.config,
    hashUnder,
    () => sessionRow(ctx, hash),
    moveHash(ctx, consoleSessions, hash),
  );
  if (!row || row.session.revokedAt || row.session.expiresAt <= now || !sameHash(row.session.tokenHash, hash)) {
    return undefined;
  }
  return {
    tokenHash: hash,
    credential: {
      accountId: row.session.accountId,
      kind,
      credentialId: row.session.id,
      expiresAt: row.session.expiresAt.getTime(),
    },
    account: { roles: row.roles, dailyQuota: row.dailyQuota },
  };
}

function principalOf(credential: CachedCredential, roles: string[]): Principal {
  return {
    accountId: credential.accountId,
    roles: roles.filter(isRole),
    via: credential.kind,
    ...(credential.kind === 'api-key' ? { keyId: credential.credentialId } : { sessionId: credential.credentialId }),
    ...(credential.projectId ? { projectId: credential.projectId } : {}),
  };
}

const servedFromCopy = (copy: LocalCredential): Authentication => ({
  principal: principalOf(copy.credential, copy.roles),
  quota: { limit: copy.limit, remaining: copy.limit },
});

/**
 * `quotaShown: false` (the gateway: its requests neither count nor show the daily quota) lets an API key be served
 * from the process's own copy (local-credentials.ts), with no Redis step; the quota figures are then not read.
 */
export async function authenticateToken(
  ctx: AppContext,
  token: string,
  options: { consumeDailyQuota: boolean; quotaShown?: boolean; now?: Date },
): Promise<Authentication> {
  const consume = options.consumeDailyQuota;
  const copies =
    !consume && options.quotaShown === false ? localCredentials(ctx.redis, ctx.config.REDIS_PREFIX) : undefined;
  // A token whose copy is kept was a well-formed API key: neither its checksum nor its hash needs computing again.
  const known = copies?.getByToken(token);
  if (known) return servedFromCopy(known);
  const kind = tokenKind(token);
  if (!kind) throw unauthorized();
  const now = options.now ?? new Date();
  const day = utcDay(now);
  const hash = keyedHash(ctx.config.SECRET_KEY, token);
  const local = kind === 'api-key' ? copies : undefined;
  const copy = local?.get(hash);
  if (copy) return servedFromCopy(copy);
  const epoch = local?.epoch ?? 0;
  const cache = new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX);

  const rotating = ctx.config.SECRET_KEY_PREVIOUS !== undefined;
  let result: AdmitResult = await cache.admit(hash, day, consume, now.getTime());
  // During a rotation an entry saying "unknown under SECRET_KEY" alone (left by a process without
  // SECRET_KEY_PREVIOUS) is a miss: the token may be stored under the previous key, and is then cached as found.
  if (result.outcome === 'miss' || (result.outcome === 'unknown' && rotating && !result.previousChecked)) {
    const loaded = await loadFromDatabase(ctx, kind, token, hash, now);
    if (!loaded) {
      await cache.fillMissing(hash, { previousChecked: rotating });
      throw unauthorized();
    }
    const cached = await cache.fill(hash, loaded.credential, loaded.account);
    result = cached
      ? await cache.admit(hash, day, consume, now.getTime())
      : await cache.admitUncached(loaded.credential, loaded.account, day, consume, now.getTime());
  }
  if (result.outcome !== 'ok' && result.outcome !== 'exceeded') throw unauthorized();

  const remaining = Math.max(0, result.limit - result.used);
  if (result.outcome === 'exceeded') {
    throw new AppError(
      'ApiKey.QuotaExceeded',
      429,
      'The daily API-key quota of this account is used up until 00:00 UTC.',
      {
        headers: {
          'retry-after': String(secondsUntilNextUtcMidnight(now)),
          'x-ratelimit-limit': String(result.limit),
          'x-ratelimit-remaining': '0',
        },
      },
    );
  }
  local?.set(token, hash, { credential: result.credential, roles: result.roles, limit: result.limit }, epoch);
  return { principal: principalOf(result.credential, result.roles), quota: { limit: result.limit, remaining } };
}
