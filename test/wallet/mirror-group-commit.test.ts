// The group commit of the wallet mirror's admit and settle steps: the steps of one organization that arrive while one
// of its calls is in flight go together in the next Lua call (at most 64), each decided exactly as if alone, in
// arrival order; a lone step leaves at once.
import type { Redis } from 'ioredis';
import type { AppContext } from '../../shared/context.js';
import { type Charge, closeCharge, openCharge } from '../../shared/gateway/accounting.js';
import { duplicateRedis } from '../../shared/redis/connection.js';
import { createHarness, type Harness } from '../support/harness.js';
import { fundedWallet, usd } from '../support/wallet-factory.js';
import { callerOf, live } from '../support/wallet-spend.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

/** A connection of the test's own (not auto-pipelined) that records how many steps each Lua call it sends carries. */
function recordingConnection(redis: Redis) {
  const connection = duplicateRedis(redis, { enableAutoPipelining: false, enableOfflineQueue: true });
  const calls: number[] = [];
  let recording = false;
  const sendCommand = connection.sendCommand.bind(connection);
  connection.sendCommand = (command, stream) => {
    // evalsha's arguments: the script's sha, the key count (the mirror's four keys and one per step), ...
    if (recording && command.name === 'evalsha') calls.push(Number(command.args[1]) - 4);
    return sendCommand(command, stream);
  };
  return { connection, calls, record: () => (recording = true) };
}

it('takes the steps waiting behind a call in one call of at most 64, each as if alone, in arrival order', async () => {
  const organizationId = await fundedWallet(h, '1');
  const caller = callerOf(organizationId);
  const { connection, calls, record } = recordingConnection(h.ctx.redis);
  const ctx: AppContext = { ...h.ctx, redis: connection };
  try {
    // Loads the mirror and the project's quota settings, and the script into Redis (no NOSCRIPT retry below).
    const first = await openCharge(ctx, caller, { operation: 'messages', reserveMicros: 0n });
    await closeCharge(ctx, first, { status: 'failed', costMicros: 0n });
    record();

    // 150 requests holding 0.3 each from 1.00, all in one turn: the first leaves alone, the others wait for it.
    const admitted = await Promise.allSettled(
      Array.from({ length: 150 }, () => openCharge(ctx, caller, { operation: 'messages', reserveMicros: usd('0.3') })),
    );
    expect(calls).toEqual([1, 64, 64, 21]);
    // As one after another: the first three fit, every later one finds 0.10 free.
    expect(admitted.map((r) => r.status)).toEqual([...Array(3).fill('fulfilled'), ...Array(147).fill('rejected')]);
    for (const r of admitted.slice(3)) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'Wallet.InsufficientBalance' });
    }
    expect(await live(h.ctx, organizationId)).toMatchObject({ balance: usd('0.1'), frozenAmount: usd('0.9') });

    calls.length = 0;
    const held = admitted.slice(0, 3).map((r) => (r as PromiseFulfilledResult<Charge>).value);
    const costs = [usd('0.1'), usd('0.2'), usd('0.3')];
    const settled = await Promise.all(
      held.map((c, i) => closeCharge(ctx, c, { status: 'succeeded', httpStatus: 200, costMicros: costs[i] as bigint })),
    );
    expect(calls).toEqual([1, 2]);
    expect(settled.map((s) => s?.charged)).toEqual(costs);
    expect(await live(h.ctx, organizationId)).toMatchObject({ balance: usd('0.4'), frozenAmount: 0n });
  } finally {
    connection.disconnect();
  }
});
