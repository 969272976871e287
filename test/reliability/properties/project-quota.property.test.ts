// Property tests of the project quota engine (issue 11): random limits and bursts of concurrent admit and
// recordTokens calls over several Redis connections against the real Lua script; admissions never pass a limit,
// exactly the requests left get through, and the token totals are the sum of what was recorded.
import fc from 'fast-check';
import { Redis } from 'ioredis';
import type { QuotaLimits } from '../../../shared/organizations/project-quotas.js';
import { type Admission, QuotaCounters, type QuotaLimitName } from '../../../shared/quota/quota-counters.js';
import { assertProperty, PropertyTally } from './figures.js';
import { freshProject, openPropertyWorld, type PropertyWorld } from './property-world.js';

let world: PropertyWorld;
let connections: Redis[];
beforeAll(async () => {
  world = await openPropertyWorld();
  connections = Array.from({ length: 4 }, () => new Redis(world.h.config.REDIS_URL));
});
afterAll(async () => {
  for (const c of connections) c.disconnect();
  await world.close();
});

/** Engines over `n` connections, all at one instant (no window boundary inside a run). */
function enginesAt(at: Date, n: number) {
  return connections
    .slice(0, n)
    .map((redis) => new QuotaCounters({ redis, db: world.ctx.db, prefix: world.h.config.REDIS_PREFIX }, () => at));
}

const requestLimits: Record<string, QuotaLimitName> = {
  dailyRequestLimit: 'dailyRequests',
  monthlyRequestLimit: 'monthlyRequests',
  requestsPerMinuteLimit: 'requestsPerMinute',
};

const instant = fc.date({
  min: new Date('2030-01-01T00:00:00Z'),
  max: new Date('2035-12-31T23:59:59Z'),
  noInvalidDate: true,
});
const enforced = fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });

describe('project quota properties', () => {
  it('admits exactly the requests left of M concurrent ones, never more than the limit', async () => {
    const tally = new PropertyTally('project quota: concurrent admits against a request limit');
    const property = fc.asyncProperty(
      fc.record({
        limitField: fc.constantFrom(...(Object.keys(requestLimits) as (keyof QuotaLimits)[])),
        limit: fc.integer({ min: 0, max: 25 }),
        enforce: enforced,
        resetDay: fc.integer({ min: 1, max: 28 }),
        warmup: fc.integer({ min: 0, max: 30 }),
        burst: fc.integer({ min: 1, max: 60 }),
        connections: fc.integer({ min: 1, max: 4 }),
        // the settings cache emptied before the burst: every call of the burst may prime it at once
        coldCache: fc.boolean(),
        at: instant,
      }),
      async (c) => {
        tally.startRun();
        const { projectId } = await freshProject(world, {
          quota: { [c.limitField]: c.limit, enforceQuota: c.enforce, customResetDay: c.resetDay },
        });
        const engines = enginesAt(c.at, c.connections);
        const first = engines[0] as QuotaCounters;
        let warmAdmitted = 0;
        for (let i = 0; i < c.warmup; i++) if ((await first.admit(projectId)).admitted) warmAdmitted += 1;
        if (c.coldCache) await first.forget(projectId);
        tally.fired(c.warmup + c.burst + 1);
        const burst = await Promise.all(
          Array.from({ length: c.burst }, (_, i) => (engines[i % engines.length] as QuotaCounters).admit(projectId)),
        );
        const admitted = burst.filter((a) => a.admitted).length;
        const rejected = burst.filter((a): a is Extract<Admission, { admitted: false }> => !a.admitted);
        const left = c.enforce ? Math.max(0, c.limit - warmAdmitted) : Number.POSITIVE_INFINITY;
        tally.check(
          warmAdmitted === (c.enforce ? Math.min(c.warmup, c.limit) : c.warmup),
          `${warmAdmitted} of ${c.warmup} sequential admits passed a limit of ${c.limit}`,
        );
        tally.check(admitted === Math.min(c.burst, left), `${admitted} of ${c.burst} admitted with ${left} left`);
        tally.check(
          rejected.every((r) => r.limit === requestLimits[c.limitField] && r.retryAfterSeconds >= 1),
          `rejections named ${[...new Set(rejected.map((r) => `${r.limit}/${r.retryAfterSeconds}s`))]}`,
        );
        const usage = await first.readUsage(projectId);
        const counted = warmAdmitted + admitted;
        tally.check(usage.day.requestCount === counted, `day counts ${usage.day.requestCount}, ${counted} admitted`);
        tally.check(
          usage.month.requestCount === counted,
          `month counts ${usage.month.requestCount}, ${counted} admitted`,
        );
        tally.check(usage.month.resetDay === c.resetDay, `month window resets on ${usage.month.resetDay}`);
        tally.settle();
      },
    );
    await assertProperty(tally, property, { numRuns: 100 });
  });

  it('sums concurrently recorded tokens exactly, and a token limit bites once they reach it', async () => {
    const tally = new PropertyTally('project quota: concurrent admits and token recordings');
    const call = fc.oneof(
      fc.record({ kind: fc.constant('admit' as const) }),
      fc.record({ kind: fc.constant('tokens' as const), tokens: fc.integer({ min: 0, max: 5000 }) }),
    );
    const property = fc.asyncProperty(
      fc.record({
        calls: fc.array(call, { minLength: 1, maxLength: 60, size: 'medium' }),
        dailyTokenLimit: fc.option(fc.integer({ min: 0, max: 60_000 }), { nil: null }),
        connections: fc.integer({ min: 1, max: 4 }),
        at: instant,
      }),
      async (c) => {
        tally.startRun();
        const { projectId } = await freshProject(world, {
          quota: { dailyTokenLimit: c.dailyTokenLimit, enforceQuota: true },
        });
        const engines = enginesAt(c.at, c.connections);
        const engineFor = (i: number) => engines[i % engines.length] as QuotaCounters;
        tally.fired(c.calls.length + 2);
        const answers = await Promise.all(
          c.calls.map((call, i) =>
            call.kind === 'admit' ? engineFor(i).admit(projectId) : engineFor(i).recordTokens(projectId, call.tokens),
          ),
        );
        const admissions = answers.filter((a): a is Admission => a !== undefined);
        const admitted = admissions.filter((a) => a.admitted).length;
        const tokens = c.calls.reduce((sum, call) => sum + (call.kind === 'tokens' ? call.tokens : 0), 0);
        const limit = c.dailyTokenLimit ?? Number.POSITIVE_INFINITY;
        const usage = await engineFor(0).readUsage(projectId);
        tally.check(usage.day.tokenCount === tokens, `day holds ${usage.day.tokenCount} tokens, ${tokens} recorded`);
        tally.check(usage.month.tokenCount === tokens, `month holds ${usage.month.tokenCount} tokens of ${tokens}`);
        tally.check(usage.day.requestCount === admitted, `day counts ${usage.day.requestCount}, ${admitted} admitted`);
        tally.check(
          admissions.every((a) => a.admitted || a.limit === 'dailyTokens'),
          'a rejection named a limit the project does not have',
        );
        // the recorded tokens only grow towards their sum: below the limit, nothing may have been refused
        if (tokens < limit) tally.check(admitted === admissions.length, `${admitted} of ${admissions.length} admitted`);
        const next = await engineFor(0).admit(projectId);
        tally.check(
          next.admitted === tokens < limit,
          `after ${tokens} tokens of ${limit} the next admit was ${next.admitted}`,
        );
        tally.settle();
      },
    );
    await assertProperty(tally, property, { numRuns: 100 });
  });
});
