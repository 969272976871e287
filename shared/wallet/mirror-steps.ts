// Typed calls of the wallet mirror's Lua steps (mirror-lua.ts): one Redis round trip each. The admit and settle steps
// of one organization's requests in flight go together (group commit, shared/redis/group-commit.ts): the steps that
// arrive while one of its calls is in flight leave in the next, in arrival order, each decided as if alone.
import type { Redis } from 'ioredis';
import { projectKeyBase } from '../quota/quota-counters.js';
import { dayCounterTtlSeconds, monthCounterTtlSeconds } from '../quota/quota-script.js';
import { epochMinute, utcDay } from '../quota/quota-windows.js';
import { submitToGroup } from '../redis/group-commit.js';
import { organizationKeyBase } from '../redis/tagged-keys.js';
import { ackLua, auditLua, expireLua, rebuildLua, renewLua, stepsLua, syncLua } from './mirror-lua.js';

/** The keys of one organization's wallet mirror. */
export type MirrorKeys = { w: string; h: string; hx: string; l: string };

export function mirrorKeys(prefix: string, organizationId: string): MirrorKeys {
  const base = organizationKeyBase(prefix, organizationId);
  return { w: `${base}:w`, h: `${base}:h`, hx: `${base}:hx`, l: `${base}:l` };
}

/** How long the marker of an expired hold stays, so a settlement arriving later still charges once. */
export const EXPIRED_HOLD_KEEP_MS = 24 * 3_600_000;

type Reply = string[];
type MirrorRedis = Redis & {
  ockWalletSteps(...args: string[]): Promise<Reply[]>;
  ockWalletSync(...args: string[]): Promise<Reply>;
  ockWalletRebuild(...args: string[]): Promise<number>;
  ockWalletAck(...args: string[]): Promise<number>;
  ockWalletExpire(...args: string[]): Promise<number>;
  ockWalletRenew(...args: string[]): Promise<number>;
  ockWalletAudit(...args: string[]): Promise<(string | number)[]>;
};

const registered = new WeakSet<Redis>();

export function mirrorCommands(redis: Redis): MirrorRedis {
  if (!registered.has(redis)) {
    redis.defineCommand('ockWalletSteps', { lua: stepsLua });
    redis.defineCommand('ockWalletSync', { numberOfKeys: 3, lua: syncLua });
    redis.defineCommand('ockWalletRebuild', { numberOfKeys: 3, lua: rebuildLua });
    redis.defineCommand('ockWalletAck', { numberOfKeys: 2, lua: ackLua });
    redis.defineCommand('ockWalletExpire', { numberOfKeys: 3, lua: expireLua });
    redis.defineCommand('ockWalletRenew', { numberOfKeys: 2, lua: renewLua });
    redis.defineCommand('ockWalletAudit', { numberOfKeys: 3, lua: auditLua });
    registered.add(redis);
  }
  return redis as MirrorRedis;
}

export type Missing = { step: 'missing'; mirror: boolean; quotaSettings: boolean };

export type AdmitReply =
  | Missing
  | { step: 'admitted'; replayed: boolean }
  | { step: 'backlog'; entries: number }
  | { step: 'inactive' }
  | { step: 'balance' }
  | { step: 'quota'; limit: string; monthStart: string };

export type AdmitInput = {
  organizationId: string;
  projectId: string;
  holdId: string;
  amount: bigint;
  /** Refuse ('balance') a wallet whose available balance is at or below zero even when `amount` is 0. */
  requireFunds?: boolean;
  holdExpiresAt: number;
  backlogLimit: number;
  at: Date;
};

const missing = (reply: Reply): Missing => ({
  step: 'missing',
  mirror: reply[1] === '1',
  quotaSettings: reply[2] === '1',
});

function windowArgs(at: Date): string[] {
  return [utcDay(at), String(at.getUTCFullYear()), String(at.getUTCMonth() + 1), String(at.getUTCDate())];
}

/** One step of a group call: its kind, its project's quota key base, its arguments. */
type Step = { kind: 'a' | 's'; quotaBase: string; args: string[] };

/**
 * At most this many steps in one call (a call's arguments hold a ledger entry per settlement, about half a kilobyte),
 * so Redis is never held long by one script.
 */
const MAX_STEPS_PER_CALL = 64;

/** Sends the steps of one organization in one call: the mirror's keys, each step's quota base (same hash tag). */
function sendSteps(redis: Redis, prefix: string, organizationId: string) {
  const k = mirrorKeys(prefix, organizationId);
  return (steps: Step[]): Promise<Reply[]> => {
    const keys = [k.w, k.h, k.hx, k.l];
    const args: string[] = [];
    for (const step of steps) {
      keys.push(step.quotaBase);
      args.push(step.kind, String(step.args.length), ...step.args);
    }
    return mirrorCommands(redis).ockWalletSteps(String(keys.length), ...keys, ...args);
  };
}

function runStep(
  redis: Redis,
  prefix: string,
  input: { organizationId: string; projectId: string },
  kind: Step['kind'],
  args: string[],
): Promise<Reply> {
  const step: Step = { kind, quotaBase: projectKeyBase(prefix, input.organizationId, input.projectId), args };
  const lane = `wallet|${prefix}|${input.organizationId}`;
  const makeCall = () => sendSteps(redis, prefix, input.organizationId);
  return submitToGroup(redis, lane, makeCall, MAX_STEPS_PER_CALL, step);
}

/** Quota admission and the hold of the request's most possible cost, in one step. */
export async function admitStep(redis: Redis, prefix: string, input: AdmitInput): Promise<AdmitReply> {
  const reply = await runStep(redis, prefix, input, 'a', [
    input.holdId,
    input.amount.toString(),
    String(input.holdExpiresAt),
    String(input.at.getTime()),
    String(input.backlogLimit),
    ...windowArgs(input.at),
    String(epochMinute(input.at)),
    String(dayCounterTtlSeconds),
    String(monthCounterTtlSeconds),
    String(EXPIRED_HOLD_KEEP_MS),
    input.requireFunds ? '1' : '0',
  ]);
  switch (reply[0]) {
    case 'admitted':
      return { step: 'admitted', replayed: reply[1] === '1' };
    case 'backlog':
      return { step: 'backlog', entries: Number(reply[1]) };
    case 'inactive':
      return { step: 'inactive' };
    case 'balance':
      return { step: 'balance' };
    case 'quota':
      return { step: 'quota', limit: String(reply[1]), monthStart: String(reply[2]) };
    default:
      return missing(reply);
  }
}

export type SettleInput = {
  organizationId: string;
  projectId: string;
  holdId: string;
  actual: bigint;
  tokens: number;
  /** The ledger entry (JSON), written to PostgreSQL by the ledger worker. */
  entry: string;
  at: Date;
};

export type SettleReply = Missing | { step: 'settled'; charged: bigint; streamLength: number; replayed: boolean };

/** Release, charge, tokens and the ledger entry, in one step. */
export async function settleStep(redis: Redis, prefix: string, input: SettleInput): Promise<SettleReply> {
  const reply = await runStep(redis, prefix, input, 's', [
    input.holdId,
    input.actual.toString(),
    String(input.tokens),
    input.entry,
    ...windowArgs(input.at),
    String(dayCounterTtlSeconds),
    String(monthCounterTtlSeconds),
  ]);
  if (reply[0] !== 'settled') return missing(reply);
  return {
    step: 'settled',
    charged: BigInt(reply[1] as string),
    streamLength: Number(reply[2]),
    replayed: reply[3] === '1',
  };
}

/** PostgreSQL's state of a wallet, read in one snapshot. */
export type WalletState = { balance: bigint; seq: number; active: boolean };
export type MirrorState = { base: bigint; seq: number; pending: bigint; frozen: bigint; active: boolean };

export async function syncStep(
  redis: Redis,
  prefix: string,
  organizationId: string,
  state: WalletState,
): Promise<MirrorState> {
  const k = mirrorKeys(prefix, organizationId);
  const [base, seq, pend, frz, act] = await mirrorCommands(redis).ockWalletSync(
    k.w,
    k.h,
    k.l,
    state.balance.toString(),
    String(state.seq),
    state.active ? '1' : '0',
  );
  return {
    base: BigInt(base ?? '0'),
    seq: Number(seq ?? 0),
    pending: BigInt(pend ?? '0'),
    frozen: BigInt(frz ?? '0'),
    active: act === '1',
  };
}

/** Rebuilds a mirror seen at `staleSeq`, ahead of PostgreSQL's `state` (read after it); true when rebuilt. */
export async function rebuildStep(
  redis: Redis,
  prefix: string,
  organizationId: string,
  state: WalletState,
  staleSeq: number,
): Promise<boolean> {
  const k = mirrorKeys(prefix, organizationId);
  const args = [state.balance.toString(), String(state.seq), state.active ? '1' : '0', String(staleSeq)];
  return (await mirrorCommands(redis).ockWalletRebuild(k.w, k.h, k.l, ...args)) === 1;
}

export async function ackStep(
  redis: Redis,
  prefix: string,
  organizationId: string,
  committed: { balance: bigint; seq: number },
  streamIds: string[],
): Promise<number> {
  const k = mirrorKeys(prefix, organizationId);
  return mirrorCommands(redis).ockWalletAck(
    k.w,
    k.l,
    committed.balance.toString(),
    String(committed.seq),
    ...streamIds,
  );
}

/** Moves the expiry of a hold still held to `expiresAt`; false when it is gone or already expired. */
export async function renewStep(
  redis: Redis,
  prefix: string,
  input: { organizationId: string; holdId: string; expiresAt: number },
): Promise<boolean> {
  const k = mirrorKeys(prefix, input.organizationId);
  return (await mirrorCommands(redis).ockWalletRenew(k.h, k.hx, input.holdId, String(input.expiresAt))) === 1;
}

export async function expireStep(redis: Redis, prefix: string, organizationId: string, now: number, limit: number) {
  const k = mirrorKeys(prefix, organizationId);
  return Number(
    await mirrorCommands(redis).ockWalletExpire(
      k.w,
      k.h,
      k.hx,
      String(now),
      String(limit),
      String(EXPIRED_HOLD_KEEP_MS),
    ),
  );
}

export type MirrorAudit = MirrorState & {
  present: boolean;
  streamedCharges: bigint;
  streamLength: number;
  heldAmount: bigint;
  holds: number;
};

export async function auditStep(redis: Redis, prefix: string, organizationId: string): Promise<MirrorAudit> {
  const k = mirrorKeys(prefix, organizationId);
  const r = (await mirrorCommands(redis).ockWalletAudit(k.w, k.h, k.l)).map(String);
  return {
    present: r[0] === '1',
    base: BigInt(r[1] ?? '0'),
    seq: Number(r[2]),
    pending: BigInt(r[3] ?? '0'),
    frozen: BigInt(r[4] ?? '0'),
    active: r[5] === '1',
    streamedCharges: BigInt(r[6] ?? '0'),
    streamLength: Number(r[7]),
    heldAmount: BigInt(r[8] ?? '0'),
    holds: Number(r[9]),
  };
}

export type StreamEntry = { streamId: string; entry: string; charged: bigint; replayed: boolean };

/** The oldest `count` entries of an organization's ledger stream. */
export async function readStream(
  redis: Redis,
  prefix: string,
  organizationId: string,
  count: number,
): Promise<StreamEntry[]> {
  const rows = await redis.xrange(mirrorKeys(prefix, organizationId).l, '-', '+', 'COUNT', count);
  return rows.map(([streamId, fields]) => {
    const get = (name: string) => {
      for (let i = 0; i < fields.length; i += 2) if (fields[i] === name) return fields[i + 1] ?? '';
      return '';
    };
    return { streamId, entry: get('e'), charged: BigInt(get('c') || '0'), replayed: get('r') === '1' };
  });
}
