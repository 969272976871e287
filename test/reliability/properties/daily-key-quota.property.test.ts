// Property test of the account daily quota (issue 11): random quotas, prior use and bursts of concurrent API-key
// authentications spread over the account's keys, racing cache invalidations (so the cached and the uncached Lua
// paths count at once) and console sessions (which never count); exactly the units left pass, each exactly once.
import fc from 'fast-check';
import { createApiKey } from '../../../shared/identity/api-keys.js';
import { authenticateToken } from '../../../shared/identity/authenticator.js';
import { CredentialCache } from '../../../shared/identity/credential-cache.js';
import { keyedHash } from '../../../shared/identity/tokens.js';
import { utcDay } from '../../../shared/time/utc-day.js';
import { createUser } from '../../support/identity.js';
import { assertProperty, PropertyTally } from './figures.js';
import { openPropertyWorld, type PropertyWorld } from './property-world.js';

let world: PropertyWorld;
beforeAll(async () => {
  world = await openPropertyWorld();
});
afterAll(async () => world.close());

type Answer = { passed: true; remaining: number } | { passed: false; code: string };

describe('account daily quota property', () => {
  it('lets exactly the units left of M concurrent key requests through, counting each once', async () => {
    const tally = new PropertyTally('daily key quota: concurrent authentications');
    const property = fc.asyncProperty(
      fc.record({
        quota: fc.integer({ min: 1, max: 30 }),
        extraKeys: fc.integer({ min: 0, max: 2 }),
        used: fc.integer({ min: 0, max: 35 }),
        burst: fc.integer({ min: 1, max: 60 }),
        sessionCalls: fc.integer({ min: 0, max: 5 }),
        invalidations: fc.array(fc.constantFrom('account' as const, 'credential' as const), { maxLength: 3 }),
        // within the sessions' 12 hours: every call of a run happens at this one instant
        minutesAhead: fc.integer({ min: 0, max: 600 }),
      }),
      async (c) => {
        tally.startRun();
        const now = new Date(Date.now() + c.minutesAhead * 60_000);
        const user = await createUser(world.h, { name: 'Quota Property', dailyQuota: c.quota });
        const extra = await Promise.all(
          Array.from({ length: c.extraKeys }, (_, i) =>
            createApiKey(world.ctx, user.accountId, { name: `extra ${i}` }).then((k) => k.token),
          ),
        );
        const keys = [user.apiKey, ...extra];
        const call = async (token: string, consumeDailyQuota: boolean): Promise<Answer> => {
          try {
            const { quota } = await authenticateToken(world.ctx, token, { consumeDailyQuota, now });
            return { passed: true, remaining: quota.remaining };
          } catch (err) {
            return { passed: false, code: String((err as { code?: string }).code ?? err) };
          }
        };
        let usedOk = 0;
        for (let i = 0; i < c.used; i++) if ((await call(keys[i % keys.length] as string, true)).passed) usedOk += 1;

        const cache = new CredentialCache(world.ctx.redis, world.h.config.REDIS_PREFIX);
        const invalidate = (kind: 'account' | 'credential', i: number) =>
          kind === 'account'
            ? cache.invalidateAccount(user.accountId)
            : cache.invalidateCredentials([keyedHash(world.h.config.SECRET_KEY, keys[i % keys.length] as string)]);
        tally.fired(c.used + c.burst + c.sessionCalls + c.invalidations.length);
        const [answers, sessions] = await Promise.all([
          Promise.all(Array.from({ length: c.burst }, (_, i) => call(keys[i % keys.length] as string, true))),
          Promise.all(Array.from({ length: c.sessionCalls }, () => call(user.session, false))),
          Promise.all(c.invalidations.map(invalidate)),
        ]);

        const left = c.quota - Math.min(c.used, c.quota);
        const passed = answers.flatMap((a) => (a.passed ? [a.remaining] : []));
        const refused = answers.flatMap((a) => (a.passed ? [] : [a.code]));
        tally.check(usedOk === Math.min(c.used, c.quota), `${usedOk} of ${c.used} sequential requests passed`);
        tally.check(passed.length === Math.min(c.burst, left), `${passed.length} of ${c.burst} passed, ${left} left`);
        tally.check(
          refused.every((code) => code === 'ApiKey.QuotaExceeded'),
          `refusals: ${[...new Set(refused)]}`,
        );
        const remaining = [...passed].sort((a, b) => b - a);
        const expectedRemaining = Array.from({ length: passed.length }, (_, i) => left - 1 - i);
        tally.check(
          JSON.stringify(remaining) === JSON.stringify(expectedRemaining),
          `remaining answers ${remaining} are not one count each (${expectedRemaining})`,
        );
        tally.check(
          sessions.every((s) => s.passed),
          `console sessions refused: ${sessions.map((s) => (s.passed ? 'ok' : s.code))}`,
        );

        const day = utcDay(now);
        const counted = Number((await world.ctx.redis.get(cache.dailyCounterKey(user.accountId, day))) ?? 0);
        tally.check(counted === usedOk + passed.length, `account counter ${counted}, ${usedOk + passed.length} passed`);
        const keyRecords = await world.ctx.redis.smembers(cache.activeKeysKey(day));
        const perKey = await Promise.all(
          keyRecords.map((id) => world.ctx.redis.hget(cache.keyCounterKey(id, day), 'count')),
        );
        const keyIds = await keyIdsOf(keys);
        const keyTotal = keyRecords.reduce((sum, id, i) => sum + (keyIds.has(id) ? Number(perKey[i] ?? 0) : 0), 0);
        tally.check(keyTotal === counted, `the account's keys counted ${keyTotal}, the account ${counted}`);
        tally.settle();
      },
    );
    await assertProperty(tally, property, { numRuns: 80 });
  });
});

/** The key ids behind tokens, by authenticating without consuming quota. */
async function keyIdsOf(tokens: string[]): Promise<Set<string>> {
  const principals = await Promise.all(
    tokens.map((token) => authenticateToken(world.ctx, token, { consumeDailyQuota: false })),
  );
  return new Set(principals.flatMap((a) => (a.principal.keyId ? [a.principal.keyId] : [])));
}
