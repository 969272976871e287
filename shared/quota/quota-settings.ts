// A project's quota settings as the enforcement script reads them: a Redis hash beside its counters, refreshed
// from PostgreSQL on a miss and replaced on every update, so the hot path needs no PostgreSQL query.
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import type { DbExecutor } from '../db/client.js';
import { projectQuotas } from '../db/schema/index.js';
import { quotaCommands, settingsTtlSeconds } from './quota-script.js';

export type ProjectQuota = typeof projectQuotas.$inferSelect;

/** Quota settings in the shape the script reads; -1 means "no limit". */
export type QuotaSettings = {
  enforce: boolean;
  resetDay: number;
  dailyRequests: number;
  dailyTokens: number;
  monthlyRequests: number;
  monthlyTokens: number;
  requestsPerMinute: number;
};

const unlimited: QuotaSettings = {
  enforce: false,
  resetDay: 1,
  dailyRequests: -1,
  dailyTokens: -1,
  monthlyRequests: -1,
  monthlyTokens: -1,
  requestsPerMinute: -1,
};

/** A project with no quota (or `enforceQuota: false`) is counted but not limited. */
export function settingsOf(quota: ProjectQuota | undefined): QuotaSettings {
  if (!quota) return unlimited;
  const limit = (v: number | null) => v ?? -1;
  return {
    enforce: quota.enforceQuota,
    resetDay: quota.customResetDay,
    dailyRequests: limit(quota.dailyRequestLimit),
    dailyTokens: limit(quota.dailyTokenLimit),
    monthlyRequests: limit(quota.monthlyRequestLimit),
    monthlyTokens: limit(quota.monthlyTokenLimit),
    requestsPerMinute: limit(quota.requestsPerMinuteLimit),
  };
}

const asHashFields = (s: QuotaSettings) => [
  'rd',
  String(s.resetDay),
  'enforce',
  s.enforce ? '1' : '0',
  'dr',
  String(s.dailyRequests),
  'dt',
  String(s.dailyTokens),
  'mr',
  String(s.monthlyRequests),
  'mt',
  String(s.monthlyTokens),
  'rpm',
  String(s.requestsPerMinute),
];

export const settingsKey = (base: string) => `${base}:settings`;

export async function loadProjectQuota(db: DbExecutor, projectId: string): Promise<ProjectQuota | undefined> {
  const [row] = await db.select().from(projectQuotas).where(eq(projectQuotas.projectId, projectId));
  return row;
}

/** Cache miss: read PostgreSQL and store the settings only if no update stored newer ones meanwhile. */
export async function primeSettings(redis: Redis, db: DbExecutor, base: string, projectId: string): Promise<void> {
  const settings = settingsOf(await loadProjectQuota(db, projectId));
  await quotaCommands(redis).ockQuotaPrimeSettings(settingsKey(base), settingsTtlSeconds, ...asHashFields(settings));
}

/** After an update committed: replace the cached settings outright. */
export async function replaceSettings(redis: Redis, base: string, settings: QuotaSettings): Promise<void> {
  const key = settingsKey(base);
  await redis
    .multi()
    .del(key)
    .hset(key, ...asHashFields(settings))
    .expire(key, settingsTtlSeconds)
    .exec();
}
