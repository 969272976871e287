// Random wallet operations as fast-check arbitraries, and how each is fired at the real services: every operation
// checks its own answers and returns the ledger effect the contract promises for them, applied exactly once.
// Paid requests go through the gateway's two Redis steps (openCharge, closeCharge); the ledger writer, the wallet
// sweep, recharges and refunds run concurrently with them, as the `ledger` and `maintenance` workers do.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { AppContext } from '../../../shared/context.js';
import { type Charge, closeCharge, openCharge, type Settled } from '../../../shared/gateway/accounting.js';
import { recharge, type WalletRecord } from '../../../shared/wallet/ledger.js';
import { writeLedger } from '../../../shared/wallet/ledger-writer.js';
import { refund } from '../../../shared/wallet/refunds.js';
import { sweepWallets } from '../../../shared/wallet/wallet-sweep.js';
import type { PropertyTally } from './figures.js';

/** One cent in micro-units: amounts are whole cents so the default alert thresholds (1, 3, 5, 10) get crossed. */
export const CENT = 10_000n;

/**
 * How a paid request ends: alone; settled twice at once (a retried settlement, e.g. a worker job rebuilt from
 * storage); settled while a release of the same request runs (a stream that ends as the client goes away); settled
 * after its hold expired while the wallet sweep runs; settled while the ledger writer moves the stream to PostgreSQL.
 */
export type SettleRace = 'alone' | 'settle-twice' | 'settle-and-release' | 'expiry-sweep' | 'ledger-write';

/**
 * Whether a call is repeated with the same idempotency key: not at all, at the same time, or after the first
 * answered (a client retry: it must get the first answer).
 */
export type Repeat = 'none' | 'concurrent' | 'after';

export type WalletOp =
  | { kind: 'recharge'; amount: bigint; repeat: Repeat }
  | { kind: 'settle'; reserved: bigint; actualPercent: number; race: SettleRace }
  | { kind: 'release'; reserved: bigint; twice: boolean }
  | { kind: 'refund'; pick: number; tenths: number; repeat: Repeat }
  | { kind: 'write' };

const cents = (max: number) => fc.integer({ min: 1, max }).map((c) => BigInt(c) * CENT);
const repeatArb = fc.constantFrom<Repeat>('none', 'concurrent', 'after');

export const walletOpArb: fc.Arbitrary<WalletOp> = fc.oneof(
  fc.record({ kind: fc.constant('recharge' as const), amount: cents(500), repeat: repeatArb }),
  fc.record({
    kind: fc.constant('settle' as const),
    reserved: cents(300),
    // 0 % (nothing billable) to 300 % of the hold (a response longer than estimated)
    actualPercent: fc.integer({ min: 0, max: 300 }),
    race: fc.constantFrom<SettleRace>('alone', 'settle-twice', 'settle-and-release', 'expiry-sweep', 'ledger-write'),
  }),
  fc.record({ kind: fc.constant('release' as const), reserved: cents(300), twice: fc.boolean() }),
  fc.record({
    kind: fc.constant('refund' as const),
    pick: fc.nat(),
    // 0: the whole consumption, else that many tenths of it
    tenths: fc.integer({ min: 0, max: 9 }),
    repeat: repeatArb,
  }),
  fc.record({ kind: fc.constant('write' as const) }),
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
      case 'settle':
        return await runSettle(env, op, label);
      case 'release':
        return await runRelease(env, op, label);
      case 'refund':
        return await runRefund(env, op, label);
      case 'write':
        await env.gate(`${label} ledger write`);
        env.tally.fired();
        await writeLedger(env.ctx, env.organizationId);
        return nothing;
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

/** Admits a new request holding `amount`; undefined when the wallet refuses (402), which is a valid answer. */
async function tryOpen(env: OpEnv, amount: bigint, label: string, expiresInMs?: number): Promise<Charge | undefined> {
  await env.gate(`${label} admit`);
  env.tally.fired();
  try {
    return await openCharge(
      env.ctx,
      { accountId: env.adminId, projectId: randomUUID(), organizationId: env.organizationId },
      { operation: 'messages', reserveMicros: amount, ...(expiresInMs ? { reservationExpiresInMs: expiresInMs } : {}) },
    );
  } catch (err) {
    if (isCode(err, 'Wallet.InsufficientBalance')) return undefined;
    throw err;
  }
}

/** Closes a copy of the charge (as a retry rebuilt from storage would), at `cost`. */
async function closeCopy(env: OpEnv, charge: Charge, cost: bigint, step: string): Promise<Settled> {
  await env.gate(step);
  env.tally.fired();
  const settled = await closeCharge(
    env.ctx,
    { ...charge, closed: false },
    {
      status: cost > 0n ? 'succeeded' : 'failed',
      costMicros: cost,
    },
  );
  if (!settled) throw new Error('a fresh charge copy was answered as closed');
  return settled;
}

function checkSettled(env: OpEnv, s: Settled, actual: bigint, label: string) {
  env.tally.check(s.charged >= 0n && s.charged <= actual, `${label} charged ${s.charged} of an actual ${actual}`);
  if (s.replayed) env.tally.check(s.charged === 0n, `${label} a replayed settlement charged ${s.charged}`);
}

async function runSettle(env: OpEnv, op: Extract<WalletOp, { kind: 'settle' }>, label: string): Promise<Effect> {
  const actual = (op.reserved * BigInt(op.actualPercent)) / 100n;
  const charge = await tryOpen(env, op.reserved, label, op.race === 'expiry-sweep' ? 1 : undefined);
  if (!charge) return nothing;
  const settle = (step: string) => closeCopy(env, charge, actual, `${label} ${step}`);
  let settlements: Settled[];
  switch (op.race) {
    case 'alone':
      settlements = [await settle('settle')];
      env.tally.check(!settlements[0]?.replayed, `${label} a first settlement answered replayed`);
      break;
    case 'settle-twice':
      settlements = await Promise.all([settle('settle'), settle('settle again')]);
      env.tally.check(settlements.filter((s) => !s.replayed).length === 1, `${label} one hold settled twice`);
      break;
    case 'settle-and-release': {
      const [settled, released] = await Promise.all([settle('settle'), closeCopy(env, charge, 0n, `${label} release`)]);
      checkSettled(env, released, 0n, label);
      env.tally.check(settled.replayed !== released.replayed, `${label} settle and release both acted, or neither`);
      settlements = [settled];
      break;
    }
    case 'expiry-sweep': {
      const sweep = async () => {
        await env.gate(`${label} sweep`);
        env.tally.fired();
        return sweepWallets(env.ctx);
      };
      const [settled] = await Promise.all([settle('settle'), sweep()]);
      settlements = [settled];
      break;
    }
    case 'ledger-write': {
      const write = async () => {
        await env.gate(`${label} ledger write`);
        env.tally.fired();
        return writeLedger(env.ctx, env.organizationId);
      };
      const [settled] = await Promise.all([settle('settle'), write()]);
      settlements = [settled];
      break;
    }
  }
  for (const s of settlements) checkSettled(env, s, actual, label);
  const charged = settlements.filter((s) => !s.replayed).reduce((sum, s) => sum + s.charged, 0n);
  return { delta: -charged, records: charged > 0n ? 1 : 0 };
}

async function runRelease(env: OpEnv, op: Extract<WalletOp, { kind: 'release' }>, label: string): Promise<Effect> {
  const charge = await tryOpen(env, op.reserved, label);
  if (!charge) return nothing;
  const answers = await Promise.all(
    Array.from({ length: op.twice ? 2 : 1 }, (_, i) => closeCopy(env, charge, 0n, `${label} release ${i}`)),
  );
  env.tally.check(answers.filter((a) => !a.replayed).length === 1, `${label} a hold released not exactly once`);
  env.tally.check(
    answers.every((a) => a.charged === 0n),
    `${label} a release charged ${answers.map((a) => a.charged)}`,
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
