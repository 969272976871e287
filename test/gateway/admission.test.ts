// Admission of counted gateway requests in one Redis step: the project quota (all five limits, seed order) and the
// hold of the request's most possible cost, exact under concurrency.
import { closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import { quotaCountersOf, setProjectQuota } from '../../shared/organizations/project-quotas.js';
import { createProject } from '../../shared/organizations/projects.js';
import { projectKeyBase, QuotaCounters } from '../../shared/quota/quota-counters.js';
import { utcDay } from '../../shared/quota/quota-windows.js';
import { createHarness, type Harness } from '../support/harness.js';
import { createUser } from '../support/identity.js';
import { fundedWallet, usd } from '../support/wallet-factory.js';
import { live } from '../support/wallet-spend.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

async function projectOf(balance: string, quota: Parameters<typeof setProjectQuota>[2]) {
  const owner = await createUser(h, { name: 'Admission owner' });
  const organizationId = await fundedWallet(h, balance, owner);
  const project = await createProject(h.ctx, organizationId, owner.accountId, { name: 'Admitted' });
  await setProjectQuota(h.ctx, project.id, quota);
  return { accountId: owner.accountId, organizationId, projectId: project.id };
}

const codeOf = (err: unknown) => (err as { code?: string }).code;
const limitOf = (err: unknown) => (err as { details?: { limit?: string } }).details?.limit;

describe('admission', () => {
  // The counters' lifetimes are set by the write that creates each key (not refreshed by every request, an EXPIRE
  // call per counter per step that the wallet steps' Redis time showed): every key a step or a late settlement
  // creates must still get one, or it would stay in Redis for ever.
  it('gives every quota counter key it creates a lifetime, also one a settlement creates after midnight', async () => {
    const caller = await projectOf('10', { dailyRequestLimit: 1_000, enforceQuota: true });
    const charge = await openCharge(h.ctx, caller, { operation: 'messages', reserveMicros: usd('0.01') });
    await closeCharge(h.ctx, charge, {
      status: 'succeeded',
      usage: { inputTokens: 5, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costMicros: 10n,
    });
    const base = projectKeyBase(h.ctx.config.REDIS_PREFIX, caller.organizationId, caller.projectId);
    const keys = await h.ctx.redis.keys(`${base}:*`);
    const counters = keys.filter((k) => /:(d|m|rpm):/.test(k));
    expect(counters.map((k) => k.replace(`${base}:`, '').split(':')[0]).sort()).toEqual(['d', 'm', 'rpm']);
    for (const key of counters) expect(await h.ctx.redis.ttl(key)).toBeGreaterThan(0);

    // Tokens settled on a day no request was admitted on create that day's key with their own write.
    const later = new Date(Date.now() + 3 * 86_400_000);
    await new QuotaCounters(
      { redis: h.ctx.redis, db: h.ctx.db, prefix: h.ctx.config.REDIS_PREFIX },
      () => later,
    ).recordTokens(caller.projectId, 42);
    const created = `${base}:d:${utcDay(later)}`;
    expect(await h.ctx.redis.hget(created, 't')).toBe('42');
    expect(await h.ctx.redis.ttl(created)).toBeGreaterThan(0);
  });

  it('admits exactly the requests a daily limit leaves of 200 concurrent ones, holding money only for those', async () => {
    const caller = await projectOf('100', { dailyRequestLimit: 50, enforceQuota: true });
    const answers = await Promise.allSettled(
      Array.from({ length: 200 }, () =>
        openCharge(h.ctx, caller, { operation: 'messages', reserveMicros: usd('0.01') }),
      ),
    );
    const admitted = answers.filter((a) => a.status === 'fulfilled');
    const refused = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
    expect(admitted).toHaveLength(50);
    expect(refused.every((e) => codeOf(e) === 'Project.QuotaExceeded' && limitOf(e) === 'dailyRequests')).toBe(true);
    expect((await quotaCountersOf(h.ctx).readUsage(caller.projectId)).day.requestCount).toBe(50);
    expect(await live(h.ctx, caller.organizationId)).toMatchObject({ balance: usd('99.5'), frozenAmount: usd('0.5') });
  });

  it('never lets 200 concurrent requests hold more than a small balance', async () => {
    const caller = await projectOf('1', {});
    const answers = await Promise.allSettled(
      Array.from({ length: 200 }, () =>
        openCharge(h.ctx, caller, { operation: 'messages', reserveMicros: usd('0.03') }),
      ),
    );
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(33);
    expect(await live(h.ctx, caller.organizationId)).toMatchObject({ balance: usd('0.01'), frozenAmount: usd('0.99') });
    const refused = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason] : []));
    expect(refused.every((e) => codeOf(e) === 'Wallet.InsufficientBalance')).toBe(true);
    // refused for money, they were not counted against the quota
    expect((await quotaCountersOf(h.ctx).readUsage(caller.projectId)).day.requestCount).toBe(33);
  });

  it('answers 402 naming what the request holds and how to add money or ask for less', async () => {
    const caller = await projectOf('1', {});
    const refused = await openCharge(h.ctx, caller, { operation: 'messages', reserveMicros: usd('2.5') }).catch(
      (err: Error) => err,
    );
    expect(refused).toMatchObject({ code: 'Wallet.InsufficientBalance', status: 402 });
    expect((refused as Error).message).toMatch(/holds up to 2\.5 USD .*top-up code .*max_tokens, max_uses/);
  });

  it('names the first limit reached in seed order, with the seconds until it resets', async () => {
    const caller = await projectOf('10', { dailyTokenLimit: 100, requestsPerMinuteLimit: 1, enforceQuota: true });
    const first = await openCharge(h.ctx, caller, { operation: 'messages', reserveMicros: usd('0.01') });
    await closeCharge(h.ctx, first, {
      status: 'succeeded',
      usage: { inputTokens: 100, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 },
      costMicros: usd('0.01'),
    });
    // daily tokens (second in the seed's order) and requests per minute (fifth) are both reached
    const refused = await openCharge(h.ctx, caller, { operation: 'messages', reserveMicros: usd('0.01') }).catch(
      (err: unknown) => err as { code: string; status: number; headers: Record<string, string> },
    );
    expect(refused).toMatchObject({ code: 'Project.QuotaExceeded', status: 429, details: { limit: 'dailyTokens' } });
    const retryAfter = Number((refused as { headers: Record<string, string> }).headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
  });
});
