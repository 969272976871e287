// Idempotency-Key (SPEC section 3): a key binds the request it first came with. While a keyed request is handled,
// its key is claimed in Redis together with the fingerprint of that request; a second request with the key meets
// the claim and is refused: 422 when its body differs, 409 while the first is still in flight. Once the first has
// finished, the claim is gone and the route answers the repeat from what it stored (the task or the record), where
// it compares fingerprints again. Losing Redis loses only the claims: the stored rows' unique keys still make the
// effect happen once.
import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { AppError, conflict } from '../errors/app-error.js';

/** The header's value: 1–255 characters after trimming (absent: no key). */
export const idempotencyKeyHeader = z.string().trim().min(1).max(255).optional();

/** Longer than any create takes; should a request outlive it, the stored row's unique key still decides. */
const CLAIM_MS = 60_000;

export const keyReused = () =>
  new AppError(
    'Idempotency.KeyReused',
    422,
    'This Idempotency-Key was first used with a different request body; send a new key for a new request.',
  );

export const requestInFlight = () =>
  conflict(
    'Idempotency.RequestInFlight',
    'A request with this Idempotency-Key is still being handled; retry once it has finished.',
  );

/** SHA-256 of a value's JSON with object keys sorted, so the same request written in another order is the same. */
export function requestFingerprint(value: unknown): string {
  const canonical = JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : typeof v === 'bigint'
        ? v.toString()
        : v,
  );
  return createHash('sha256').update(canonical).digest('hex');
}

/** Refuses a repeat whose stored fingerprint is another request's (rows stored before fingerprints pass). */
export function assertSameRequest(stored: string | null | undefined, fingerprint: string): void {
  if (stored && stored !== fingerprint) throw keyReused();
}

const releaseScript = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

type ClaimRedis = Redis & { ockIdempotencyRelease(key: string, value: string): Promise<number> };

export function claimCommands(redis: Redis): ClaimRedis {
  const r = redis as ClaimRedis;
  if (typeof r.ockIdempotencyRelease !== 'function') {
    redis.defineCommand('ockIdempotencyRelease', { numberOfKeys: 1, lua: releaseScript });
  }
  return r;
}

export type IdempotentRequest = {
  /** Whose keys these are, e.g. `video:{projectId}`: keys of different callers never meet. */
  scope: string;
  key: string;
  fingerprint: string;
};

/** Runs `handle` holding the key's claim; throws 422 or 409 when another request holds it. */
export async function withIdempotencyClaim<T>(
  ctx: Pick<AppContext, 'redis' | 'config'>,
  request: IdempotentRequest,
  handle: () => Promise<T>,
): Promise<T> {
  const redis = claimCommands(ctx.redis);
  const keyHash = createHash('sha256').update(request.key).digest('hex');
  const claimKey = `${ctx.config.REDIS_PREFIX}:idempotency:${request.scope}:${keyHash}`;
  const value = `${request.fingerprint}:${randomUUID()}`;
  // A claim released between our SET and GET is tried again; three rounds cannot all meet a vanishing claim
  // unless requests keep racing, in which case the last answer is "in flight".
  for (let round = 0; ; round++) {
    if ((await redis.set(claimKey, value, 'PX', CLAIM_MS, 'NX')) === 'OK') break;
    const held = await redis.get(claimKey);
    if (held !== null && !held.startsWith(`${request.fingerprint}:`)) throw keyReused();
    if (held !== null || round === 2) throw requestInFlight();
  }
  try {
    return await handle();
  } finally {
    await redis.ockIdempotencyRelease(claimKey, value).catch(() => undefined);
  }
}
