// API keys: `ock_` tokens shown once, stored as a keyed hash; enable, disable and delete take effect at once.
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { accounts, apiKeyDailyGatewayUsage, apiKeyDailyUsage, apiKeys, projects } from '../db/schema/index.js';
import { conflict, notFound } from '../errors/app-error.js';
import { addDays, utcDay } from '../time/utc-day.js';
import { CredentialCache } from './credential-cache.js';
import { assertCanBindProject } from './project-binding.js';
import { displayPrefix, generateToken, keyedHash } from './tokens.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type KeyUsage = { today: number; total: number };
/** A project key's gateway requests, and what their Consume records took from the wallet (micro-units). */
export type GatewayKeyUsage = KeyUsage & { spentTodayMicros: bigint; spentTotalMicros: bigint };
/**
 * `usage` counts the key's catalog (`/api/v1/**`) requests, the ones the account's daily quota counts;
 * `gatewayUsage`, for a key bound to a project (else null), its gateway (`/v1/**`) requests as the ledger wrote them,
 * with what they were charged.
 */
export type ApiKeyRecord = ApiKeyRow & { usage: KeyUsage; gatewayUsage: GatewayKeyUsage | null; lastUsed: Date | null };
const noGatewayUsage: GatewayKeyUsage = { today: 0, total: 0, spentTodayMicros: 0n, spentTotalMicros: 0n };

/** Days whose counters may still live only in Redis (the rollover persists them after midnight). */
const UNPERSISTED_DAYS = 3;

/**
 * The keys one account may hold at once, enabled and disabled alike (deleting one makes room). It bounds the list,
 * which reads every key's usage, and what one signed-in account can add to the credential tables.
 */
export const MAX_API_KEYS_PER_ACCOUNT = 100;

export const apiKeyLimitReached = () =>
  conflict(
    'ApiKey.LimitReached',
    `An account may hold at most ${MAX_API_KEYS_PER_ACCOUNT} API keys (enabled or disabled): delete one to create another.`,
  );

/**
 * Creates a key, within the account's limit. In `db`'s transaction when it is one (a project from a template), else
 * in its own; either way the account row is locked while the keys are counted, so N concurrent creates with M places
 * left make exactly M keys. `no key update` is enough to serialize creates and, unlike `update`, does not wait for
 * the foreign-key checks of rows that reference the account (sessions, memberships). With an `actor` (a person's
 * request), the key's creation is in the audit log in the same transaction: a new credential is how someone who held
 * a session for a minute would keep their access, so it leaves a record as its deletion does.
 */
export async function createApiKey(
  ctx: AppContext,
  accountId: string,
  input: { name: string; projectId?: string },
  { db = ctx.db, actor }: { db?: DbExecutor; actor?: AuditActor } = {},
): Promise<{ record: ApiKeyRecord; token: string }> {
  const token = generateToken('api-key');
  const created = await db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('no key update');
    if (input.projectId) await assertCanBindProject(tx, accountId, input.projectId);
    // A separate statement after the lock: under READ COMMITTED it sees every key committed before the lock was ours.
    const [held] = await tx.select({ n: count() }).from(apiKeys).where(eq(apiKeys.accountId, accountId));
    if ((held?.n ?? 0) >= MAX_API_KEYS_PER_ACCOUNT) throw apiKeyLimitReached();
    const [row] = await tx
      .insert(apiKeys)
      .values({
        accountId,
        name: input.name,
        prefix: displayPrefix(token),
        tokenHash: keyedHash(ctx.config.SECRET_KEY, token),
        projectId: input.projectId ?? null,
      })
      .returning();
    const key = row as ApiKeyRow;
    if (actor) {
      await recordAudit(tx, actor, {
        action: 'api_key.create',
        organizationId: key.projectId ? await organizationOfProject(tx, key.projectId) : null,
        target: { type: 'api_key', id: key.id },
        after: { accountId, name: key.name, prefix: key.prefix, projectId: key.projectId },
      });
    }
    return key;
  });
  const none = { today: 0, total: 0 };
  return {
    record: { ...created, usage: none, gatewayUsage: created.projectId ? noGatewayUsage : null, lastUsed: null },
    token,
  };
}

/**
 * The account's keys, newest first, with their usage: at most MAX_API_KEYS_PER_ACCOUNT (an account that made more
 * before the limit existed sees its newest ones, and the older ones as it deletes). The live counters of every key
 * are read in one Redis pipeline (one round trip).
 */
export async function listApiKeys(ctx: AppContext, accountId: string, now = new Date()): Promise<ApiKeyRecord[]> {
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(MAX_API_KEYS_PER_ACCOUNT);
  return withUsage(ctx, rows, now);
}

/**
 * The gateway requests of the project keys among `ids`, today (UTC) and in all, from their daily counts in one grouped
 * query: one row per key and day it was used, which the ledger writer adds to as it writes the request logs
 * (shared/wallet/ledger-rows.ts), never the request logs themselves, so the cost follows the keys' days of use, not
 * their requests. The total is the sum of those rows rather than a column of its own: a key used every day for three
 * years has ~1,100 rows, and 100 such keys are ~110,000 index entries to sum, where one total row per key would be
 * written by every ledger batch. A request shows once the `ledger` worker has written its log (well under a second
 * after it ends; docs/wallet.md, "Lag"), so it may trail the project's quota counters; it counts on the UTC day it
 * started.
 */
async function gatewayUsageOf(ctx: AppContext, ids: string[], now: Date): Promise<Map<string, GatewayKeyUsage>> {
  if (ids.length === 0) return new Map();
  const { requestCount, spent, day } = apiKeyDailyGatewayUsage;
  const isToday = sql`${day} = ${utcDay(now)}`;
  const counted = await ctx.db
    .select({
      keyId: apiKeyDailyGatewayUsage.keyId,
      total: sql<string>`sum(${requestCount})`,
      today: sql<string>`coalesce(sum(${requestCount}) filter (where ${isToday}), 0)`,
      spentTotal: sql<string>`sum(${spent})`,
      spentToday: sql<string>`coalesce(sum(${spent}) filter (where ${isToday}), 0)`,
    })
    .from(apiKeyDailyGatewayUsage)
    .where(inArray(apiKeyDailyGatewayUsage.keyId, ids))
    .groupBy(apiKeyDailyGatewayUsage.keyId);
  return new Map(
    counted.map((c) => [
      c.keyId,
      {
        today: Number(c.today),
        total: Number(c.total),
        spentTodayMicros: BigInt(c.spentToday),
        spentTotalMicros: BigInt(c.spentTotal),
      },
    ]),
  );
}

/**
 * Keys with their usage (today's requests, every request, last use): the persisted days from PostgreSQL in one query,
 * the days that may still live only in Redis in one pipeline, the project keys' gateway requests in one more query.
 * One round trip each, whatever the number of keys.
 */
export async function withUsage<Row extends ApiKeyRow>(
  ctx: AppContext,
  rows: Row[],
  now = new Date(),
): Promise<(Row & Pick<ApiKeyRecord, 'usage' | 'gatewayUsage' | 'lastUsed'>)[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const today = utcDay(now);
  const days = Array.from({ length: UNPERSISTED_DAYS }, (_, i) => addDays(today, -i));
  const cache = new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX);
  const pipeline = ctx.redis.pipeline();
  for (const id of ids) for (const day of days) pipeline.hmget(cache.keyCounterKey(id, day), 'count', 'lastUsedAt');
  // Together: a read left pending while another is awaited would, if it failed meanwhile, be a rejection nothing
  // handles, and Node ends the process on one (a review found a database blip could take the API down this way).
  const [persisted, replies, gatewayByKey] = await Promise.all([
    ctx.db
      .select({
        keyId: apiKeyDailyUsage.keyId,
        total: sql<string>`sum(${apiKeyDailyUsage.requestCount})`,
        days: sql<string[]>`array_agg(${apiKeyDailyUsage.day}::text)`,
      })
      .from(apiKeyDailyUsage)
      .where(inArray(apiKeyDailyUsage.keyId, ids))
      .groupBy(apiKeyDailyUsage.keyId),
    pipeline.exec().then((r) => r ?? []),
    gatewayUsageOf(
      ctx,
      rows.filter((r) => r.projectId).map((r) => r.id),
      now,
    ),
  ]);
  const byKey = new Map(persisted.map((p) => [p.keyId, { total: Number(p.total), days: new Set(p.days) }]));

  return rows.map((row, i) => {
    const known = byKey.get(row.id) ?? { total: 0, days: new Set<string>() };
    let total = known.total;
    let todayCount = 0;
    let lastUsedMs = row.lastUsedAt?.getTime() ?? 0;
    days.forEach((day, d) => {
      const [count, lastUsedAt] = (replies[i * days.length + d]?.[1] as (string | null)[]) ?? [];
      const n = Number(count ?? 0);
      if (day === today) todayCount = n;
      if (!known.days.has(day)) total += n;
      if (lastUsedAt) lastUsedMs = Math.max(lastUsedMs, Number(lastUsedAt));
    });
    return {
      ...row,
      usage: { today: todayCount, total },
      gatewayUsage: row.projectId ? (gatewayByKey.get(row.id) ?? noGatewayUsage) : null,
      lastUsed: lastUsedMs ? new Date(lastUsedMs) : null,
    };
  });
}

async function ownedKey(ctx: AppContext, accountId: string, keyId: string): Promise<ApiKeyRow> {
  const [row] = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)));
  // Another account's key answers exactly like a missing one.
  if (!row) throw notFound('ApiKey.NotFound', 'No such API key.');
  return row;
}

export async function setApiKeyStatus(
  ctx: AppContext,
  accountId: string,
  keyId: string,
  status: 'enabled' | 'disabled',
): Promise<void> {
  const key = await ownedKey(ctx, accountId, keyId);
  // The hash the row has when it is written, not when it was read: during a SECRET_KEY rotation a first use may have
  // moved it to the new key's hash in between, and cached it under that one (secret-rotation.ts).
  const written = await ctx.db
    .update(apiKeys)
    .set({ status })
    .where(eq(apiKeys.id, key.id))
    .returning({ tokenHash: apiKeys.tokenHash });
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateCredentials(written.map((k) => k.tokenHash));
}

/** Deletes a key and records it in the audit log (under the organization of its project, when it has one). */
export async function deleteApiKey(
  ctx: AppContext,
  accountId: string,
  keyId: string,
  actor: AuditActor,
): Promise<void> {
  await removeApiKey(ctx, await ownedKey(ctx, accountId, keyId), actor);
}

/**
 * Deletes a key already found for the caller (their own, or one of a project they manage) and records it in the audit
 * log, in one transaction; then forgets its cached credential, so the gateway and the API refuse it at once.
 */
export async function removeApiKey(ctx: AppContext, key: ApiKeyRow, actor: AuditActor): Promise<void> {
  const tokenHash = await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(apiKeys)
      .where(eq(apiKeys.id, key.id))
      .returning({
        projectId: apiKeys.projectId,
        organizationId: projectOrganization(apiKeys.projectId),
        tokenHash: apiKeys.tokenHash,
      });
    // Deleted at the same moment by another request: that one recorded it.
    if (!deleted) throw notFound('ApiKey.NotFound', 'No such API key.');
    await recordAudit(tx, actor, {
      action: 'api_key.delete',
      organizationId: deleted.organizationId,
      target: { type: 'api_key', id: key.id },
      before: {
        accountId: key.accountId,
        name: key.name,
        prefix: key.prefix,
        status: key.status,
        projectId: key.projectId,
      },
    });
    return deleted.tokenHash;
  });
  // The deleted row's hash, not `key`'s: a SECRET_KEY rotation's first use may have moved it since `key` was read.
  await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).invalidateCredentials([tokenHash]);
}

async function organizationOfProject(tx: DbExecutor, projectId: string): Promise<string | null> {
  const [project] = await tx
    .select({ organizationId: projects.organizationId })
    .from(projects)
    .where(eq(projects.id, projectId));
  return project?.organizationId ?? null;
}

const projectOrganization = (projectId: typeof apiKeys.projectId) =>
  sql<string | null>`(select ${projects.organizationId} from ${projects} where ${projects.id} = ${projectId})`;
