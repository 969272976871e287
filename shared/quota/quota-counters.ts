// The project quota engine the gateway calls: `admit` checks every limit and counts the request in one atomic
// Redis step, `recordTokens` adds a response's tokens afterwards, `readUsage` reads the same counters.
import type { Redis } from 'ioredis';
import type { DbExecutor } from '../db/client.js';
import { AppError } from '../errors/app-error.js';
import { organizationOfProject } from '../gateway/project-directory.js';
import { organizationKeyBase } from '../redis/tagged-keys.js';
import { dayCounterTtlSeconds, monthCounterTtlSeconds, quotaCommands } from './quota-script.js';
import { primeSettings, type QuotaSettings, replaceSettings, settingsKey } from './quota-settings.js';
import {
  type Clock,
  epochMinute,
  nextMonthWindowStart,
  nextUtcMidnight,
  secondsUntil,
  systemClock,
  utcDay,
} from './quota-windows.js';

export type QuotaLimitName =
  | 'dailyRequests'
  | 'dailyTokens'
  | 'monthlyRequests'
  | 'monthlyTokens'
  | 'requestsPerMinute';

export type QuotaUsage = {
  day: { date: string; requestCount: number; tokenCount: number };
  month: { windowStart: string; resetDay: number; requestCount: number; tokenCount: number };
};

export type Admission =
  | { admitted: true; usage: QuotaUsage }
  | { admitted: false; limit: QuotaLimitName; retryAfterSeconds: number };

/** The Redis key base of one project: its counters and settings carry its organization's hash tag. */
export const projectKeyBase = (prefix: string, organizationId: string, projectId: string) =>
  `${organizationKeyBase(prefix, organizationId)}:q:${projectId}`;

export class QuotaCounters {
  constructor(
    private readonly deps: { redis: Redis; db: DbExecutor; prefix: string },
    private readonly clock: Clock = systemClock,
  ) {}

  private async base(projectId: string, organizationId?: string) {
    const org = organizationId ?? (await organizationOfProject(this.deps, projectId));
    return projectKeyBase(this.deps.prefix, org, projectId);
  }

  /** Runs the script at the clock's instant; on a settings miss, primes them from PostgreSQL and runs again. */
  private async run(projectId: string, mode: 'admit' | 'tokens' | 'read', tokens = 0) {
    const at = this.clock();
    const base = await this.base(projectId);
    const args = [
      mode,
      utcDay(at),
      at.getUTCFullYear(),
      at.getUTCMonth() + 1,
      at.getUTCDate(),
      epochMinute(at),
      tokens,
      dayCounterTtlSeconds,
      monthCounterTtlSeconds,
    ];
    const redis = quotaCommands(this.deps.redis);
    let reply = await redis.ockQuota(base, ...args);
    if (reply[0] === 'missing') {
      await primeSettings(this.deps.redis, this.deps.db, base, projectId);
      reply = await redis.ockQuota(base, ...args);
      if (reply[0] === 'missing') throw new Error(`quota settings of project ${projectId} vanished while priming`);
    }
    return { at, reply };
  }

  private usageFrom(at: Date, reply: string[]): QuotaUsage {
    const [, windowStart = '', dr = '0', dt = '0', mr = '0', mt = '0'] = reply;
    return {
      day: { date: utcDay(at), requestCount: Number(dr), tokenCount: Number(dt) },
      month: {
        windowStart,
        resetDay: Number(windowStart.slice(8, 10)),
        requestCount: Number(mr),
        tokenCount: Number(mt),
      },
    };
  }

  /** Checks the limits in the seed's order and, when all pass, counts the request; one Redis round trip. */
  async admit(projectId: string): Promise<Admission> {
    const { at, reply } = await this.run(projectId, 'admit');
    if (reply[0] === 'admitted') return { admitted: true, usage: this.usageFrom(at, reply) };
    return rejection(reply[2] as QuotaLimitName, at, reply[1] ?? '');
  }

  /** Adds the tokens of a finished response to the current day and month windows. */
  async recordTokens(projectId: string, tokens: number): Promise<void> {
    if (!Number.isSafeInteger(tokens) || tokens < 0)
      throw new RangeError(`tokens must be a whole number ≥ 0, got ${tokens}`);
    if (tokens === 0) return;
    await this.run(projectId, 'tokens', tokens);
  }

  async readUsage(projectId: string): Promise<QuotaUsage> {
    const { at, reply } = await this.run(projectId, 'read');
    return this.usageFrom(at, reply);
  }

  /** Called by a quota update while it holds the row's lock (so updates replace it in commit order); the next
   * request sees the new limits. */
  async settingsChanged(projectId: string, settings: QuotaSettings): Promise<void> {
    await replaceSettings(this.deps.redis, await this.base(projectId), settings);
  }

  /** Called when a project is deleted (with its organization, which can no longer be looked up). */
  async forget(projectId: string, organizationId?: string): Promise<void> {
    await this.deps.redis.del(settingsKey(await this.base(projectId, organizationId)));
  }
}

/** A rejected admission at `at`: the limit and the seconds until its window resets (month window from its start). */
export function rejection(
  limit: QuotaLimitName,
  at: Date,
  monthWindowStart: string,
): Extract<Admission, { admitted: false }> {
  const resetDay = Number(monthWindowStart.slice(8, 10));
  const until =
    limit === 'dailyRequests' || limit === 'dailyTokens'
      ? nextUtcMidnight(at)
      : limit === 'requestsPerMinute'
        ? new Date((epochMinute(at) + 1) * 60_000)
        : nextMonthWindowStart(at, resetDay);
  return { admitted: false, limit, retryAfterSeconds: secondsUntil(at, until) };
}

const messages: Record<QuotaLimitName, string> = {
  dailyRequests: 'The project has used its daily request quota.',
  dailyTokens: 'The project has used its daily token quota.',
  monthlyRequests: 'The project has used its monthly request quota.',
  monthlyTokens: 'The project has used its monthly token quota.',
  requestsPerMinute: 'The project is over its requests-per-minute limit.',
};

/** The 429 a route answers for a rejected admission, rendered in the route family's shape. A key's holder is often
 * not the person who sets the project's limits, so it says who can and where. */
export function quotaExceeded(admission: Extract<Admission, { admitted: false }>, projectId: string): AppError {
  const who =
    ` An Admin of its organization or the project's Owner changes its limits: POST /api/projects/${projectId}/quota ` +
    "or the console's project page.";
  return new AppError('Project.QuotaExceeded', 429, messages[admission.limit] + who, {
    headers: { 'retry-after': String(admission.retryAfterSeconds) },
    details: { limit: admission.limit },
  });
}
