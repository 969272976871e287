// Property tests of the wallet ledger (issues 11 and 16): random batches of concurrent top-ups, paid requests held and
// settled in the Redis mirror (costs up to 3× the hold, retried, raced by releases, the expiry sweep and the ledger
// writer), releases and refunds against the real services, each batch's step starts interleaved by fast-check's
// scheduler; after every batch the mirror, PostgreSQL and the answers agree exactly.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { closeCharge, openCharge } from '../../../shared/gateway/accounting.js';
import type { WalletRecord } from '../../../shared/wallet/ledger.js';
import { assertProperty, PropertyTally } from './figures.js';
import { checkQuietLedger } from './ledger-checks.js';
import { freshWallet, openPropertyWorld, type PropertyWorld } from './property-world.js';
import { CENT, runWalletOp, walletOpArb } from './wallet-operations.js';

let world: PropertyWorld;
beforeAll(async () => {
  world = await openPropertyWorld();
});
afterAll(async () => world.close());

const startingBalance = fc.integer({ min: 0, max: 1500 }).map((c) => BigInt(c) * CENT);

describe('wallet ledger properties', () => {
  it('keeps balance = ledger = the answers, never negative, nothing leaked, every effect once', async () => {
    const tally = new PropertyTally('wallet ledger: random concurrent operation batches');
    const property = fc.asyncProperty(
      startingBalance,
      fc.array(fc.array(walletOpArb, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 4 }),
      fc.scheduler(),
      async (start, batches, s) => {
        tally.startRun();
        const organizationId = await freshWallet(world, start);
        let expected = { balance: start, records: start > 0n ? 1 : 0 };
        let consumed: WalletRecord[] = [];
        for (const [b, batch] of batches.entries()) {
          const env = {
            ctx: world.ctx,
            organizationId,
            adminId: world.admin.accountId,
            tally,
            consumed,
            gate: (label: string) => s.schedule(Promise.resolve(label), label),
          };
          const effects = await s.waitFor(Promise.all(batch.map((op, i) => runWalletOp(env, op, `b${b}#${i}`))));
          for (const e of effects) {
            expected = { balance: expected.balance + e.delta, records: expected.records + e.records };
          }
          const records = await checkQuietLedger(tally, world.ctx, organizationId, expected);
          consumed = records.filter((r) => r.type === 'Consume');
          tally.settle();
        }
      },
    );
    await assertProperty(tally, property, {
      numRuns: 120,
    });
  });

  it('settles a hold exactly once when several settlements and releases of its request race', async () => {
    const tally = new PropertyTally('wallet ledger: racing settlements of one hold');
    const closer = fc.oneof(
      fc.record({ kind: fc.constant('settle' as const), actualPercent: fc.integer({ min: 0, max: 300 }) }),
      fc.record({ kind: fc.constant('release' as const) }),
    );
    const property = fc.asyncProperty(
      startingBalance.filter((b) => b > 0n),
      fc.integer({ min: 1, max: 100 }),
      fc.array(closer, { minLength: 2, maxLength: 6 }),
      async (start, reservedPercent, closers) => {
        tally.startRun();
        const organizationId = await freshWallet(world, start);
        const reserved = (start * BigInt(reservedPercent)) / 100n || 1n;
        const charge = await openCharge(
          world.ctx,
          { accountId: world.admin.accountId, projectId: randomUUID(), organizationId },
          { operation: 'messages', reserveMicros: reserved },
        );
        tally.fired(1 + closers.length);
        const costs = closers.map((c) => (c.kind === 'release' ? 0n : (reserved * BigInt(c.actualPercent)) / 100n));
        // every close is a copy of the charge, as retries rebuilt from storage are
        const answers = await Promise.all(
          costs.map((cost) =>
            closeCharge(world.ctx, { ...charge, closed: false }, { status: 'succeeded', costMicros: cost }),
          ),
        );
        const acted = answers.flatMap((a, i) => (a && !a.replayed ? [{ ...a, cost: costs[i] as bigint }] : []));
        tally.check(acted.length === 1, `${acted.length} settlements acted on one hold`);
        tally.check(
          answers.every((a) => a !== undefined && (!a.replayed || a.charged === 0n)),
          'a replayed settlement charged',
        );
        const winner = acted[0];
        if (winner) tally.check(winner.charged <= winner.cost, `charged ${winner.charged} of a cost of ${winner.cost}`);
        const charged = winner?.charged ?? 0n;
        await checkQuietLedger(tally, world.ctx, organizationId, {
          balance: start - charged,
          records: 1 + (charged > 0n ? 1 : 0),
        });
        tally.settle();
      },
    );
    await assertProperty(tally, property, { numRuns: 100 });
  });
});
