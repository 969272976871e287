// The repository's GitHub star count, kept in a Redis cache by the maintenance worker; readers never wait on GitHub.
import type { AppContext } from '../context.js';
import { operatorUrlClient } from '../http/index.js';

export type StarCount = { repo: string; stars?: number; fetchedAt?: string };

/** After this age the route asks the worker for a fresh count (it still answers the cached one at once). */
export const STALE_AFTER_MS = 30 * 60_000;
export const REFRESH_JOB_ID = 'github-stars-refresh';

const cacheKey = (ctx: AppContext) => `${ctx.config.REDIS_PREFIX}:github:stars:${ctx.config.GITHUB_REPO}`;

export async function readStarCount(ctx: AppContext): Promise<{ count: StarCount; stale: boolean }> {
  const raw = await ctx.redis.get(cacheKey(ctx));
  const cached = raw ? (JSON.parse(raw) as StarCount) : undefined;
  const fetchedAt = cached?.fetchedAt ? Date.parse(cached.fetchedAt) : 0;
  return {
    count: cached ?? { repo: ctx.config.GITHUB_REPO },
    stale: !cached || Date.now() - fetchedAt > STALE_AFTER_MS,
  };
}

/**
 * How often reads may ask for a refresh. While GitHub fails (rate limit, outage, no route) the count stays stale and
 * every read asks; without this each ask, once the previous job finished, was another GitHub call, so an anonymous
 * script's reads became GitHub calls one for one.
 */
export const REFRESH_ASK_INTERVAL_MS = 60_000;

/** Asks the maintenance worker for a refresh, at most once per REFRESH_ASK_INTERVAL_MS for every process together;
 * concurrent asks collapse into one waiting job. */
export async function requestStarRefresh(ctx: AppContext): Promise<void> {
  const asked = await ctx.redis.set(`${cacheKey(ctx)}:asked`, '1', 'PX', REFRESH_ASK_INTERVAL_MS, 'NX');
  if (asked !== 'OK') return;
  await ctx.queues.add(
    'maintenance',
    'github-stars',
    {},
    { jobId: REFRESH_JOB_ID, removeOnComplete: true, removeOnFail: true },
  );
}

const GITHUB_API = { name: 'github-api', timeoutMs: 10_000, maxBytes: 1024 * 1024 };
// GITHUB_API_URL is operator configuration, so its host is trusted even when it is internal.
const clientFor = (ctx: AppContext) => operatorUrlClient(ctx.config, GITHUB_API, [ctx.config.GITHUB_API_URL]);

/**
 * The maintenance job's refresh. A machine without a route to GitHub fails every refresh, and every read of a stale
 * count asks for one: the first failure is logged as a warning saying so, later ones with the same reason at debug,
 * until a refresh succeeds again. The job itself ends without error (readers keep the cached count either way).
 */
let lastFailure: string | undefined;
export async function refreshStarCountOrSayOnce(ctx: AppContext): Promise<StarCount | { failed: string }> {
  try {
    const count = await refreshStarCount(ctx);
    if (lastFailure) ctx.logger.info({ repo: count.repo }, 'GitHub star count fetched again');
    lastFailure = undefined;
    return count;
  } catch (err) {
    const reason = (err as Error).message;
    const level = reason === lastFailure ? 'debug' : 'warn';
    ctx.logger[level](
      { repo: ctx.config.GITHUB_REPO, err: reason },
      'GitHub star count cannot be fetched (offline?); readers get the cached count, and this is said once',
    );
    lastFailure = reason;
    return { failed: reason };
  }
}

export async function refreshStarCount(ctx: AppContext): Promise<StarCount> {
  const url = new URL(`repos/${ctx.config.GITHUB_REPO}`, `${ctx.config.GITHUB_API_URL.replace(/\/$/, '')}/`);
  const reply = await clientFor(ctx).fetchBuffer(url, {
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  });
  if (reply.status !== 200) throw new Error(`GitHub answered ${reply.status} for ${ctx.config.GITHUB_REPO}`);
  const stars = (JSON.parse(reply.body.toString('utf8')) as { stargazers_count?: unknown }).stargazers_count;
  if (typeof stars !== 'number' || !Number.isSafeInteger(stars) || stars < 0) {
    throw new Error('GitHub answered without a stargazers_count');
  }
  const count: StarCount = { repo: ctx.config.GITHUB_REPO, stars, fetchedAt: new Date().toISOString() };
  await ctx.redis.set(cacheKey(ctx), JSON.stringify(count));
  return count;
}
