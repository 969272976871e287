// POST /api/v1/telemetry's work: find each event's public item, hash the client (never stored raw), and take the
// events in one Redis step (telemetry-intake.ts). Counting is finished by the telemetry flush.

import { hash } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { catalogErrors } from '../catalog/catalog-errors.js';
import type { ItemType } from '../catalog/item-types.js';
import { admitPublicReadMiss } from '../catalog/public-read-limit.js';
import type { AppContext } from '../context.js';
import { catalogItems } from '../db/schema/index.js';
import { type AppError, isAppError } from '../errors/app-error.js';
import { tooManyRequests } from '../rate-limit/sliding-window.js';
import { type IntakeEvent, intake } from './telemetry-intake.js';

export type TelemetryInput = {
  itemType: ItemType;
  slug: string;
  eventType: 'view' | 'install' | 'usage' | 'favorite';
  toolName?: string | undefined;
  clientId?: string | undefined;
  /** The sender's id for the event: the same one again (a retry) within 24 hours counts once. */
  eventId?: string | undefined;
};

/**
 * SPEC: the first 16 hex characters of SHA-256 of the client id (or caller IP) and the item. Node's one-shot hash:
 * the same digest as createHash's without a Hash object per event (which showed in the intake's CPU profile).
 */
export const clientHashOf = (client: string, itemId: string) =>
  hash('sha256', `${client}\u0000${itemId}`, 'hex').slice(0, 16);

const FOUND_MS = 60_000;
const MISSING_MS = 5_000;
/** Published items looked up lately; a catalog holds fewer, and past it the oldest entry leaves. */
export const FOUND_SLUGS_MAX = 50_000;
/** Unknown or unpublished slugs looked up lately: anyone can name new ones, so they have a bound of their own. */
export const MISSING_SLUGS_MAX = 10_000;
type Cached = { id: string | null; until: number };
const foundIds = new Map<string, Cached>();
const missingIds = new Map<string, Cached>();
/**
 * Lookups in flight: the events that name a slug being looked up wait for that one query, and are not counted. When
 * the address that started it is past its allowance, each waiting event tries again as its own (its own address).
 */
type Lookup = { id: string | null } | { refused: unknown };
const lookups = new Map<string, Promise<Lookup>>();

/** Adds (or refreshes) an entry at the end of its map; past the map's bound the oldest entry leaves, O(1). */
function remember(cache: Map<string, Cached>, max: number, key: string, id: string | null) {
  cache.delete(key);
  if (cache.size >= max) cache.delete(cache.keys().next().value as string);
  cache.set(key, { id, until: Date.now() + (id ? FOUND_MS : MISSING_MS) });
}

/**
 * A slug the process has not looked up lately costs PostgreSQL a query, found or not, and an unknown one is never
 * counted by the telemetry limit (only taken events are): it counts against the address's allowance of uncached
 * public reads instead (`PUBLIC_READ_MISSES_PER_ADDRESS_PER_MINUTE`, security review #147), before the query.
 * Unknown slugs are cached apart from published items, so made-up ones (from many addresses) never push a published
 * item out: one map for both, emptied whole at 50,000 entries, let 50,001 made-up slugs make every event of every
 * client a lookup again, counted against that client's allowance (security review #152). Concurrent events naming
 * one slug share one lookup, counted once.
 */
async function publicItemId(ctx: AppContext, type: ItemType, slug: string, ip: string): Promise<string | null> {
  const key = `${type}/${slug}`;
  for (;;) {
    const hit = foundIds.get(key) ?? missingIds.get(key);
    if (hit && hit.until > Date.now()) return hit.id;
    const inFlight = lookups.get(key);
    if (inFlight) {
      const joined = await inFlight;
      if ('id' in joined) return joined.id;
      continue;
    }
    const lookup = (async (): Promise<Lookup> => {
      try {
        await admitPublicReadMiss(ctx, ip);
      } catch (refused) {
        return { refused };
      }
      return { id: await lookUp(ctx, type, slug, key) };
    })();
    lookups.set(key, lookup);
    try {
      const own = await lookup;
      if ('refused' in own) throw own.refused;
      return own.id;
    } finally {
      if (lookups.get(key) === lookup) lookups.delete(key);
    }
  }
}

async function lookUp(ctx: AppContext, type: ItemType, slug: string, key: string): Promise<string | null> {
  const [row] = await ctx.db
    .select({ id: catalogItems.id })
    .from(catalogItems)
    .where(and(eq(catalogItems.type, type), eq(catalogItems.slug, slug), isNotNull(catalogItems.currentVersionId)));
  const id = row?.id ?? null;
  if (id) {
    missingIds.delete(key);
    remember(foundIds, FOUND_SLUGS_MAX, key, id);
  } else {
    foundIds.delete(key);
    remember(missingIds, MISSING_SLUGS_MAX, key, null);
  }
  return id;
}

async function toIntakeEvent(ctx: AppContext, input: TelemetryInput, ip: string): Promise<IntakeEvent> {
  const itemId = await publicItemId(ctx, input.itemType, input.slug, ip);
  if (!itemId) throw catalogErrors.itemNotFound(input.itemType);
  const clientHash = clientHashOf(input.clientId ?? ip, itemId);
  return {
    itemId,
    eventType: input.eventType,
    clientHash,
    ...(input.eventId ? { sentId: clientHashOf(input.eventId, clientHash) } : {}),
    ...(input.eventType === 'usage' && input.itemType === 'mcp' && input.toolName ? { toolName: input.toolName } : {}),
  };
}

/** SPEC section 2: over TELEMETRY_RATE_LIMIT_PER_MINUTE events per address and minute (sliding), 429. */
const rateLimited = (retryAfterMs: number) =>
  tooManyRequests(
    'Telemetry.RateLimited',
    'Too many telemetry events from this address: wait before sending more (see Retry-After).',
    retryAfterMs,
  );

const settingsOf = (ctx: AppContext) => ({
  prefix: ctx.config.REDIS_PREFIX,
  limitPerMinute: ctx.config.TELEMETRY_RATE_LIMIT_PER_MINUTE,
});

/** One event: recorded, or an error (404 unknown item, 429 over the address's limit). */
export async function acceptTelemetry(
  ctx: AppContext,
  input: TelemetryInput,
  caller: { ip: string; now?: Date },
): Promise<void> {
  const event = await toIntakeEvent(ctx, input, caller.ip);
  const taken = await intake(ctx.redis, settingsOf(ctx), caller.ip, [event], caller.now ?? new Date());
  if (taken.accepted === 0) throw rateLimited(taken.retryAfterMs);
}

/**
 * At most this many of a batch's events look their slug up at once. A batch of 100 slugs the process had not looked up
 * lately ran 100 queries at once: it took every connection of the API's pool (10), and with PostgreSQL busy its last
 * checkouts passed the pool's 5 s and the whole batch answered 503, as did other requests waiting for the pool (found
 * by a CI run, `test/telemetry/telemetry-slug-cache.test.ts`). Cached slugs cost no query and pass through as before.
 */
export const BATCH_LOOKUPS_AT_ONCE = 4;

/** Runs `each` over `items` with at most `lanes` in flight, in order of start. */
async function inLanes<T>(items: T[], lanes: number, each: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < items.length; index = next++) await each(items[index] as T, index);
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}

/** A batch entry that was not recorded, and why (in the catalog family's problem terms). */
export type EventRefusal = { status: number; code: string; message: string };
export type BatchResult = { recorded: true } | { recorded: false; error: EventRefusal };

const refusalOf = (err: AppError): EventRefusal => ({ status: err.status, code: err.code, message: err.message });

/**
 * Many events of one client address in one Redis step. Each event is answered on its own: a refused one (unknown
 * item, over the address's limit, or invalid: `invalid` carries those the route could not read) never stops the
 * others. Every event of the batch counts against the address's limit, in order.
 */
export async function acceptTelemetryBatch(
  ctx: AppContext,
  inputs: (TelemetryInput | AppError)[],
  caller: { ip: string; now?: Date },
): Promise<{ results: BatchResult[]; retryAfterMs: number }> {
  const results: BatchResult[] = new Array(inputs.length);
  const events: { index: number; event: IntakeEvent }[] = [];
  let missWaitMs = 0;
  await inLanes(inputs, BATCH_LOOKUPS_AT_ONCE, async (input, index) => {
    if (isAppError(input)) {
      results[index] = { recorded: false, error: refusalOf(input) };
      return;
    }
    try {
      events.push({ index, event: await toIntakeEvent(ctx, input, caller.ip) });
    } catch (err) {
      if (!isAppError(err)) throw err;
      results[index] = { recorded: false, error: refusalOf(err) };
      // Past the address's public read allowance (#147): the batch's Retry-After waits for it too.
      missWaitMs = Math.max(missWaitMs, Number(err.headers?.['retry-after'] ?? 0) * 1000);
    }
  });
  events.sort((a, b) => a.index - b.index);
  const taken =
    events.length === 0
      ? { accepted: 0, retryAfterMs: 0 }
      : await intake(
          ctx.redis,
          settingsOf(ctx),
          caller.ip,
          events.map((e) => e.event),
          caller.now ?? new Date(),
        );
  const limited = refusalOf(rateLimited(taken.retryAfterMs));
  events.forEach(({ index }, k) => {
    results[index] = k < taken.accepted ? { recorded: true } : { recorded: false, error: limited };
  });
  return { results, retryAfterMs: Math.max(taken.retryAfterMs, missWaitMs) };
}
