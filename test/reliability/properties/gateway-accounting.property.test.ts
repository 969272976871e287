// Property test of gateway accounting (issue 11): random bursts of concurrent counted requests through
// openCharge/closeCharge (reserve, quota admission, settle or release, tokens), some closed twice or by a rebuilt
// charge as a retried worker job does, against a wallet and a request limit that may both run out.

import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { requestLogs, walletRecords } from '../../../shared/db/schema/index.js';
import {
  type Charge,
  closeCharge,
  type Outcome,
  openCharge,
  type Settled,
} from '../../../shared/gateway/accounting.js';
import { quotaCountersOf } from '../../../shared/organizations/project-quotas.js';
import { writeLedger } from '../../../shared/wallet/ledger-writer.js';
import { assertProperty, PropertyTally } from './figures.js';
import { checkQuietLedger } from './ledger-checks.js';
import { freshProject, openPropertyWorld, type PropertyWorld } from './property-world.js';
import { CENT } from './wallet-operations.js';

let world: PropertyWorld;
beforeAll(async () => {
  world = await openPropertyWorld();
});
afterAll(async () => world.close());

/** once; twice with the same charge (a stream ending as it closes); or also by a charge rebuilt from storage. */
type Close = 'once' | 'twice' | 'rebuilt';

const requestArb = fc
  .record({
    reserveCents: fc.integer({ min: 0, max: 100 }),
    costPercent: fc.integer({ min: 0, max: 300 }),
    tokens: fc.integer({ min: 0, max: 3000 }),
    close: fc.constantFrom<Close>('once', 'twice', 'rebuilt'),
  })
  // A charge rebuilt from storage (the video worker's replay after a crash) may carry tokens too: only the close
  // that writes the request log counts them. An unreserved charge costs nothing.
  .map((r) => ({
    ...r,
    cost: (BigInt(r.reserveCents) * CENT * BigInt(r.costPercent)) / 100n,
  }));

type Request = typeof requestArb extends fc.Arbitrary<infer R> ? R : never;

const outcomeOf = (r: Request): Outcome => ({
  status: r.cost > 0n ? 'succeeded' : 'failed',
  httpStatus: r.cost > 0n ? 200 : 502,
  usage: {
    inputTokens: Math.floor(r.tokens / 2),
    outputTokens: r.tokens - Math.floor(r.tokens / 2),
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  },
  costMicros: r.cost,
});

describe('gateway accounting property', () => {
  it('records every admitted request once: one log, one settlement or release, its tokens, within the limit', async () => {
    const tally = new PropertyTally('gateway accounting: concurrent open/close charges');
    const property = fc.asyncProperty(
      fc.record({
        balanceCents: fc.integer({ min: 0, max: 1000 }),
        requestLimit: fc.option(fc.integer({ min: 0, max: 20 }), { nil: null }),
        requests: fc.array(requestArb, { minLength: 1, maxLength: 30, size: 'medium' }),
      }),
      async (c) => {
        tally.startRun();
        const start = BigInt(c.balanceCents) * CENT;
        const { organizationId, projectId } = await freshProject(world, {
          balance: start,
          quota: { dailyRequestLimit: c.requestLimit, enforceQuota: true },
        });
        const caller = { accountId: world.owner.accountId, projectId, organizationId };
        const run = async (
          r: Request,
        ): Promise<{ charge: Charge; request: Request; settled: (Settled | undefined)[] } | { code: string }> => {
          let charge: Charge;
          tally.fired();
          try {
            charge = await openCharge(world.ctx, caller, {
              operation: 'messages',
              reserveMicros: BigInt(r.reserveCents) * CENT,
            });
          } catch (err) {
            return { code: String((err as { code?: string }).code ?? err) };
          }
          const closes = [closeCharge(world.ctx, charge, outcomeOf(r))];
          if (r.close === 'twice') closes.push(closeCharge(world.ctx, charge, outcomeOf(r)));
          if (r.close === 'rebuilt') closes.push(closeCharge(world.ctx, { ...charge, closed: false }, outcomeOf(r)));
          tally.fired(closes.length);
          return { charge, request: r, settled: await Promise.all(closes) };
        };
        const results = await Promise.all(c.requests.map(run));

        const opened = results.flatMap((r) => ('charge' in r ? [r] : []));
        const codes = results.flatMap((r) => ('code' in r ? [r.code] : []));
        tally.check(
          codes.every((code) => code === 'Wallet.InsufficientBalance' || code === 'Project.QuotaExceeded'),
          `unexpected refusals: ${[...new Set(codes)]}`,
        );
        if (c.requestLimit !== null) {
          tally.check(opened.length <= c.requestLimit, `${opened.length} admitted past a limit of ${c.requestLimit}`);
          if (codes.includes('Project.QuotaExceeded')) {
            tally.check(
              opened.length === c.requestLimit,
              `429 answered with ${opened.length} of ${c.requestLimit} used`,
            );
          }
        }
        const usage = await quotaCountersOf(world.ctx).readUsage(projectId);
        const tokens = opened.reduce((sum, o) => sum + o.request.tokens, 0);
        tally.check(
          usage.day.requestCount === opened.length,
          `quota counts ${usage.day.requestCount} of ${opened.length}`,
        );
        tally.check(usage.day.tokenCount === tokens, `quota holds ${usage.day.tokenCount} tokens, ${tokens} used`);

        // Each request settled once: one close acted (the in-process repeat is a no-op, a rebuilt copy a replay).
        let charged = 0n;
        let records = start > 0n ? 1 : 0;
        for (const o of opened) {
          const acted = o.settled.filter((x) => x && !x.replayed) as Settled[];
          tally.check(acted.length === 1, `a request was settled ${acted.length} times`);
          const got = acted[0]?.charged ?? 0n;
          tally.check(got <= o.request.cost, `charged ${got} of a cost of ${o.request.cost}`);
          charged += got;
          if (got > 0n) records += 1;
        }
        await writeLedger(world.ctx, organizationId);
        const byId = new Map(opened.map((o) => [o.charge.requestLogId, o.request]));
        const logs = await world.ctx.db
          .select()
          .from(requestLogs)
          .where(eq(requestLogs.organizationId, organizationId));
        tally.check(logs.length === opened.length, `${logs.length} request logs for ${opened.length} requests`);
        tally.check(
          logs.every((l) => byId.get(l.id)?.cost === l.costMicros),
          'a request log is not one of the admitted requests or shows another cost',
        );
        const consumes = await world.ctx.db
          .select()
          .from(walletRecords)
          .where(eq(walletRecords.organizationId, organizationId));
        tally.check(
          consumes.filter((r) => r.type === 'Consume').every((r) => byId.has(r.requestLogId ?? '')),
          'a Consume record is not one of the admitted requests',
        );
        await checkQuietLedger(tally, world.ctx, organizationId, { balance: start - charged, records });
        tally.settle();
      },
    );
    await assertProperty(tally, property, { numRuns: 80 });
  });
});
