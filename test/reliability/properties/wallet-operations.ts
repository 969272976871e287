// Random wallet operations as fast-check arbitraries, and how each is fired at the real services: every operation
// checks its own answers and returns the ledger effect the contract promises for them, applied exactly once.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { AppContext } from '../../../shared/context.js';
import { consume } from '../../../shared/wallet/consumption.js';
import { recharge, type WalletRecord } from '../../../shared/wallet/ledger.js';
import { refund } from '../../../shared/wallet/refunds.js';
import {
  expireReservations,
  type Reservation,
  release,
  reserve,
  type Settlement,
  settle,
} from '../../../shared/wallet/reservations.js';
import type { PropertyTally } from './figures.js';

/** One cent in micro-units: amounts are whole cents so the default alert thresholds (1, 3, 5, 10) get crossed. */
export const CENT = 10_000n;

/**
 * How a reserved request ends: alone; settled twice at once (a retried settle); settled while released (a stream
 * that ends as the client goes away); one request reserved twice and both reservations settled (a retried
 * request); settled while the expiry sweep runs on a reservation already past its expiry.
 */
export type SettleRace = 'alone' | 'settle-twice' | 'settle-and-release' | 'retried-request' | 'expiry-sweep';

/**
 * Whether a call is repeated with the same idempotency key: not at all, at the same time (both may be first; a 402
 * for one is then a valid answer), or after the first answered (a client retry: it must get the first answer).
 */
export type Repeat = 'none' | 'concurrent' | 'after';

export type WalletOp =
  | { kind: 'recharge'; amount: bigint; repeat: Repeat }
  | { kind: 'consume'; amount: bigint; repeat: Repeat }
  | { kind: 'settle'; reserved: bigint; actualPercent: number; race: SettleRace }
  | { kind: 'release'; reserved: bigint; reserveRepeat: Repeat; twice: boolean }
  | { kind: 'refund'; pick: number; tenths: number; repeat: Repeat };

const cents = (max: number) => fc.integer({ min: 1, max }).map((c) => BigInt(c) * CENT);
const repeatArb = fc.constantFrom<Repeat>('none', 'concurrent', 'after');

export const walletOpArb: fc.Arbitrary<WalletOp> = fc.oneof(
  fc.record({ kind: fc.constant('recharge' as const), amount: cents(500), repeat: repeatArb }),
  fc.record({ kind: fc.constant('consume' as const), amount: cents(300), repeat: repeatArb }),
  fc.record({
    kind: fc.constant('settle' as const),
    reserved: cents(300),
    // 0 % (nothing billable) to 300 % of the reservation (a response longer than estimated)
    actualPercent: fc.integer({ min: 0, max: 300 }),
    race: fc.constantFrom<SettleRace>('alone', 'settle-twice', 'settle-and-release', 'retried-request', 'expiry-sweep'),
  }),
  fc.record({
    kind: fc.constant('release' as const),
    reserved: cents(300),
    reserveRepeat: repeatArb,
    twice: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('refund' as const),
    pick: fc.nat(),
    // 0: the whole consumption, else that many tenths of it
    tenths: fc.integer({ min: 0, max: 9 }),
    repeat: repeatArb,
  }),
);

export type Effect = { delta: bigint; records: number };
const nothing: Effect = { delta: 0n, records: 0 };

export type OpEnv = {
  ctx: AppContext;
  organizationId: string;
  adminId: string;
  tally: PropertyTally;
  /** Consume records written by earlier batches, the targets of refunds. */
  consumed: WalletRecord[];
  /** Waits for the scheduler to let step `label` start. */
  gate: (label: string) => Promise<unknown>;
};

const codeOf = (err: unknown) => (err as { code?: string }).code ?? (err as Error).message;
const isCode = (err: unknown, code: string) => codeOf(err) === code;
const callsOf = (repeat: Repeat) => (repeat === 'none' ? 1 : 2);

/** The call, and its repeat as `repeat` says; every answer, in call order. */
async function repeated<T>(repeat: Repeat, call: () => Promise<T>): Promise<PromiseSettledResult<T>[]> {
  if (repeat !== 'after') return Promise.allSettled(Array.from({ length: callsOf(repeat) }, call));
  const [first] = await Promise.allSettled([call()]);
  const [again] = await Promise.allSettled([call()]);
  return [first as PromiseSettledResult<T>, again as PromiseSettledResult<T>];
}
const fulfilled = <T>(results: PromiseSettledResult<T>[]) =>
  results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
const rejections = <T>(results: PromiseSettledResult<T>[]) =>
  results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));

/** Runs one operation; an unexpected error is a violation, not a crash of the batch. */
export async function runWalletOp(env: OpEnv, op: WalletOp, label: string): Promise<Effect> {
  try {
    switch (op.kind) {
      case 'recharge':
        return await runRecharge(env, op, label);
      case 'consume':
        return await runConsume(env, op, label);
      case 'settle':
        return await runSettle(env, op, label);
      case 'release':
        return await runRelease(env, op, label);
      case 'refund':
        return await runRefund(env, op, label);
    }
  } catch (err) {
    env.tally.check(false, `${label} ${op.kind}: unexpected ${codeOf(err)}`);
    return nothing;
  }
}

async function runRecharge(env: OpEnv, op: Extract<WalletOp, { kind: 'recharge' }>, label: string): Promise<Effect> {
  const idempotencyKey = randomUUID();
  await env.gate(`${label} recharge`);
  env.tally.fired(callsOf(op.repeat));
  const results = await repeated(op.repeat, () =>
    recharge(env.ctx, env.organizationId, { amount: op.amount, idempotencyKey }),
  );
  const answers = fulfilled(results);
  env.tally.check(answers.length === results.length, `${label} recharge failed: ${rejections(results).map(codeOf)}`);
  env.tally.check(answers.filter((a) => !a.replayed).length === 1, `${label} recharge not applied exactly once`);
  env.tally.check(new Set(answers.map((a) => a.record.id)).size === 1, `${label} recharge replay named another record`);
  return { delta: op.amount, records: 1 };
}

async function runConsume(env: OpEnv, op: Extract<WalletOp, { kind: 'consume' }>, label: string): Promise<Effect> {
  const requestLogId = randomUUID();
  await env.gate(`${label} consume`);
  env.tally.fired(callsOf(op.repeat));
  const results = await repeated(op.repeat, () => consume(env.ctx, env.organizationId, op.amount, { requestLogId }));
  const answers = fulfilled(results);
  const errors = rejections(results);
  env.tally.check(
    errors.every((e) => isCode(e, 'Wallet.InsufficientBalance')),
    `${label} consume: unexpected ${errors.map(codeOf)}`,
  );
  if (op.repeat === 'after' && results[0]?.status === 'fulfilled') {
    env.tally.check(
      results[1]?.status === 'fulfilled' && results[1].value.replayed,
      `${label} consume: the retry of a charged request was answered ${results[1]?.status === 'rejected' ? codeOf(results[1].reason) : 'as a new charge'}`,
    );
  }
  if (answers.length === 0) return nothing;
  env.tally.check(answers.filter((a) => !a.replayed).length === 1, `${label} consume not applied exactly once`);
  env.tally.check(new Set(answers.map((a) => a.record.id)).size === 1, `${label} consume replay named another record`);
  return { delta: -op.amount, records: 1 };
}

/** Reserves for a new request id; undefined when the wallet refuses (402), which is a valid answer. */
async function tryReserve(
  env: OpEnv,
  amount: bigint,
  label: string,
  options: { expiresInMs?: number; repeat?: Repeat } = {},
) {
  const requestId = randomUUID();
  const repeat = options.repeat ?? 'none';
  await env.gate(`${label} reserve`);
  env.tally.fired(callsOf(repeat));
  const results = await repeated(repeat, () =>
    reserve(env.ctx, env.organizationId, amount, {
      requestId,
      ...(options.expiresInMs ? { expiresInMs: options.expiresInMs } : {}),
    }),
  );
  const errors = rejections(results);
  const unexpected = errors.filter((e) => !isCode(e, 'Wallet.InsufficientBalance'));
  if (unexpected.length > 0) throw unexpected[0];
  const answers = fulfilled(results);
  env.tally.check(new Set(answers.map((r) => r.id)).size <= 1, `${label} one request id got two reservations`);
  if (repeat === 'after' && results[0]?.status === 'fulfilled') {
    env.tally.check(
      results[1]?.status === 'fulfilled' && results[1].value.id === results[0].value.id,
      `${label} reserve: the retry of a reserved request was answered ${results[1]?.status === 'rejected' ? codeOf(results[1].reason) : 'with another reservation'}`,
    );
  }
  return answers[0];
}
function checkSettlement(env: OpEnv, s: Settlement, actual: bigint, label: string) {
  env.tally.check(s.charged >= 0n && s.charged <= actual, `${label} charged ${s.charged} of an actual ${actual}`);
  // A replay names the request's record but may charge nothing more (a retried request settled elsewhere).
  if (s.replayed) return;
  env.tally.check(s.charged + s.uncollected === actual, `${label} charged + uncollected ≠ actual ${actual}`);
  env.tally.check((s.record?.amount ?? 0n) === s.charged, `${label} record amount ≠ charged ${s.charged}`);
}

async function runSettle(env: OpEnv, op: Extract<WalletOp, { kind: 'settle' }>, label: string): Promise<Effect> {
  const actual = (op.reserved * BigInt(op.actualPercent)) / 100n;
  const reservation = await tryReserve(env, op.reserved, label, op.race === 'expiry-sweep' ? { expiresInMs: 1 } : {});
  if (!reservation) return nothing;
  const requestLogId = randomUUID();
  const settleIt = async (r: Reservation, step: string) => {
    await env.gate(`${label} ${step}`);
    env.tally.fired();
    return settle(env.ctx, r.id, actual, { requestLogId });
  };
  if (op.race === 'alone') {
    const s = await settleIt(reservation, 'settle');
    checkSettlement(env, s, actual, label);
    env.tally.check(!s.replayed, `${label} a first settle answered replayed`);
    return { delta: -s.charged, records: s.charged > 0n ? 1 : 0 };
  }
  if (op.race === 'expiry-sweep') {
    const sweep = async () => {
      await env.gate(`${label} sweep`);
      env.tally.fired();
      return expireReservations(env.ctx);
    };
    const [s] = await Promise.all([settleIt(reservation, 'settle'), sweep()]);
    checkSettlement(env, s, actual, label);
    return { delta: -s.charged, records: s.charged > 0n ? 1 : 0 };
  }
  if (op.race === 'settle-and-release') {
    const releaseIt = async () => {
      await env.gate(`${label} release`);
      env.tally.fired();
      return release(env.ctx, reservation.id);
    };
    const [settled, released] = await Promise.allSettled([settleIt(reservation, 'settle'), releaseIt()]);
    if (released.status === 'rejected') throw released.reason;
    if (released.value.released) {
      env.tally.check(
        settled.status === 'rejected' && isCode(settled.reason, 'Wallet.ReservationClosed'),
        `${label} released, yet its settle did not answer 409 Wallet.ReservationClosed`,
      );
      return nothing;
    }
    if (settled.status === 'rejected') throw settled.reason;
    env.tally.check(
      released.value.status === 'settled',
      `${label} release lost to a settle but sees ${released.value.status}`,
    );
    checkSettlement(env, settled.value, actual, label);
    return { delta: -settled.value.charged, records: settled.value.charged > 0n ? 1 : 0 };
  }
  const second = op.race === 'settle-twice' ? reservation : await tryReserve(env, op.reserved, `${label} (retry)`);
  const settlements = await Promise.all(
    second ? [settleIt(reservation, 'settle'), settleIt(second, 'settle again')] : [settleIt(reservation, 'settle')],
  );
  for (const s of settlements) checkSettlement(env, s, actual, label);
  const charging = settlements.filter((s) => !s.replayed && s.charged > 0n);
  env.tally.check(charging.length <= 1, `${label} one request charged ${charging.length} times`);
  if (op.race === 'settle-twice') {
    env.tally.check(settlements.filter((s) => !s.replayed).length === 1, `${label} a reservation settled twice`);
    env.tally.check(
      new Set(settlements.map((s) => s.record?.id ?? null)).size === 1,
      `${label} the two settles name different records`,
    );
  }
  const charged = settlements.filter((s) => !s.replayed).reduce((sum, s) => sum + s.charged, 0n);
  return { delta: -charged, records: charged > 0n ? 1 : 0 };
}

async function runRelease(env: OpEnv, op: Extract<WalletOp, { kind: 'release' }>, label: string): Promise<Effect> {
  const reservation = await tryReserve(env, op.reserved, label, { repeat: op.reserveRepeat });
  if (!reservation) return nothing;
  const calls = op.twice ? 2 : 1;
  await env.gate(`${label} release`);
  env.tally.fired(calls);
  const answers = await Promise.all(Array.from({ length: calls }, () => release(env.ctx, reservation.id)));
  env.tally.check(answers.filter((a) => a.released).length === 1, `${label} a reservation released not exactly once`);
  env.tally.check(
    answers.every((a) => a.status === 'released'),
    `${label} release answered ${answers.map((a) => a.status)}`,
  );
  return nothing;
}

async function runRefund(env: OpEnv, op: Extract<WalletOp, { kind: 'refund' }>, label: string): Promise<Effect> {
  const target = env.consumed[op.pick % Math.max(1, env.consumed.length)];
  if (!target) return nothing;
  const amount = op.tenths === 0 ? target.amount : (target.amount * BigInt(op.tenths)) / 10n || 1n;
  const reason = `property refund ${label}`;
  await env.gate(`${label} refund`);
  env.tally.fired(callsOf(op.repeat));
  const results = await repeated(op.repeat, () =>
    refund(env.ctx, target.id, {
      ...(op.tenths === 0 ? {} : { amount }),
      reason,
      createdBy: env.adminId,
      organizationId: env.organizationId,
    }),
  );
  const errors = rejections(results);
  env.tally.check(
    errors.every((e) => isCode(e, 'Wallet.AlreadyRefunded')),
    `${label} refund: unexpected ${errors.map(codeOf)}`,
  );
  const answers = fulfilled(results);
  const fresh = answers.filter((a) => !a.replayed);
  env.tally.check(fresh.length <= 1, `${label} one refund applied ${fresh.length} times`);
  env.tally.check(new Set(answers.map((a) => a.record.id)).size <= 1, `${label} refund replay named another record`);
  // An identical repeat of a refund that went through returns it; 409 is only for a different refund.
  if (answers.length > 0) env.tally.check(errors.length === 0, `${label} an identical repeat of a refund answered 409`);
  return fresh.length > 0 ? { delta: amount, records: 1 } : nothing;
}
