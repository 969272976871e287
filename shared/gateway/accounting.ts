// Accounting of one counted gateway request, exactly once, in two Redis steps (docs/gateway.md, "Accounting"):
// `openCharge` admits it (project quota, and a hold of its most possible cost in the wallet mirror) and
// `closeCharge` settles it (hold released, actual cost charged, tokens counted, ledger entry appended). PostgreSQL is
// written behind by the `ledger` worker; the request never waits for it.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { currentCorrelationId } from '../logging/correlation.js';
import { recordSettledRequest } from '../metrics/metrics.js';
import { projectKeyBase, type QuotaLimitName, quotaExceeded, rejection } from '../quota/quota-counters.js';
import { primeSettings } from '../quota/quota-settings.js';
import { encodeEntry } from '../wallet/ledger-entry.js';
import { requestLedgerWrite } from '../wallet/ledger-writer.js';
import { admitStep, type Missing, renewStep, settleStep } from '../wallet/mirror-steps.js';
import { loadMirror } from '../wallet/wallet-mirror.js';
import { insufficientBalance, walletEmpty, walletInactive } from '../wallet/wallets.js';
import type { GatewayCaller } from './gateway-caller.js';
import { type TokenUsage, totalTokens } from './pricing.js';
import { countRefusal } from './refusal-counts.js';

export type Charge = {
  /** The request log's id, also the id of the request's hold in the wallet mirror. */
  readonly requestLogId: string;
  readonly caller: GatewayCaller;
  readonly operation: string;
  readonly model: string | undefined;
  readonly startedAt: number;
  closed: boolean;
  /** Renews the hold while the request runs in this process (a charge with the default hold), until it closes. */
  renewal?: ReturnType<typeof setInterval>;
};

export type Outcome = {
  status: 'succeeded' | 'failed' | 'cancelled' | 'client_closed';
  httpStatus?: number;
  usage?: TokenUsage;
  costMicros: bigint;
  errorMessage?: string;
  /**
   * The registry id of the model that served the request, when it differs from the one it was opened with (a
   * Messages answer from a `fallbacks` model): the request log and the project's usage file it under this model, the
   * one its cost was priced at. Left out, the model the request named is kept (nothing served it, or it named one).
   */
  servedModel?: string;
};

const zeroUsage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

type Ctx = Pick<AppContext, 'db' | 'redis' | 'config' | 'queues' | 'logger'>;

export const ledgerBacklogged = () =>
  new AppError(
    'Ledger.Backlogged',
    503,
    'Too many settled requests of this organization are waiting to be written to the ledger; try again shortly.',
    { headers: { 'retry-after': '5' } },
  );

/** Loads in flight, by what they load: the requests that find the same thing missing share one load. */
const loading = new Map<string, Promise<void>>();

/**
 * Runs `load` once for every caller that asks for `key` while it runs. Each load is safe to repeat; sharing it keeps a
 * burst of requests that found a mirror missing together (a group commit answers them at once) to one PostgreSQL
 * read instead of one each, which emptied the pool under 1,000 concurrent requests.
 */
function sharedLoad(key: string, load: () => Promise<void>): Promise<void> {
  let inFlight = loading.get(key);
  if (!inFlight) {
    inFlight = load().finally(() => loading.delete(key));
    loading.set(key, inFlight);
  }
  return inFlight;
}

/** A step found the mirror or the project's quota settings missing: load them (both at once) before it runs again. */
async function prepare(ctx: Ctx, caller: GatewayCaller, missing: Missing): Promise<void> {
  const base = projectKeyBase(ctx.config.REDIS_PREFIX, caller.organizationId, caller.projectId);
  await Promise.all([
    missing.mirror
      ? undefined
      : sharedLoad(`mirror|${ctx.config.REDIS_PREFIX}|${caller.organizationId}`, async () => {
          await loadMirror(ctx, caller.organizationId);
        }),
    missing.quotaSettings
      ? undefined
      : sharedLoad(`settings|${base}`, () => primeSettings(ctx.redis, ctx.db, base, caller.projectId)),
  ]);
}

/** Runs a step; when it finds something missing, loads it and runs it once more. */
async function withLoaded<R extends { step: string }>(
  ctx: Ctx,
  caller: GatewayCaller,
  step: () => Promise<R | Missing>,
): Promise<R> {
  let reply = await step();
  if (reply.step === 'missing') {
    await prepare(ctx, caller, reply as Missing);
    reply = await step();
    if (reply.step === 'missing') throw new Error(`wallet mirror of ${caller.organizationId} vanished while loading`);
  }
  return reply as R;
}

/** The charges this process opened with a renewed hold and has not settled yet. */
const openHere = new Set<Charge>();
let allSettled: (() => void) | undefined;

function leftHere(charge: Charge) {
  if (openHere.delete(charge) && openHere.size === 0) allSettled?.();
}

/**
 * Resolves once every charge this process opened is settled, or after `withinMs`: a process that stops cuts its
 * requests in flight (each then settles for what it delivered) and waits here before closing its connections, so no
 * cut request is left to its hold's expiry, which would charge nothing.
 */
export function chargesSettled(withinMs: number): Promise<number> {
  if (openHere.size === 0) return Promise.resolve(0);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(openHere.size), withinMs);
    allSettled = () => {
      clearTimeout(timer);
      resolve(0);
    };
  });
}

/** The longest a request's hold is renewed: far past any real stream, short of money frozen for good. */
export const MAX_RENEWED_HOLD_MS = 6 * 3_600_000;

/**
 * Keeps the hold of a request this process is still answering: a hold expires so that the money of a request whose
 * process died goes back, not while the request runs (a stream lasts as long as the upstream writes and the client
 * reads; released under it, the same money admitted another request, and the first one's cost went uncollected).
 */
function renewWhileOpen(ctx: Ctx, charge: Charge, holdMs: number): void {
  const renew = () => {
    // A request no path closed (a bug) must not freeze its money for as long as the process lives.
    if (Date.now() - charge.startedAt > MAX_RENEWED_HOLD_MS) {
      clearInterval(charge.renewal);
      return leftHere(charge);
    }
    return renewStep(ctx.redis, ctx.config.REDIS_PREFIX, {
      organizationId: charge.caller.organizationId,
      holdId: charge.requestLogId,
      expiresAt: Date.now() + holdMs,
    }).then(
      // A hold settled elsewhere (another copy of the charge) or already expired needs no more renewals.
      (held) => held || clearInterval(charge.renewal),
      (err: Error) =>
        ctx.logger.warn({ requestLogId: charge.requestLogId, err: err.message }, 'hold not renewed; retrying later'),
    );
  };
  charge.renewal = setInterval(renew, Math.ceil(holdMs / 3));
  charge.renewal.unref();
}

/**
 * Admits a request and holds its most possible cost. Without `reservationExpiresInMs` the hold lives
 * `GATEWAY_HOLD_MS` and is renewed until `closeCharge` (every such charge is closed by the process that opened it);
 * with it (a video task, settled by a worker), it lives that long.
 */
export async function openCharge(
  ctx: Ctx,
  caller: GatewayCaller,
  input: {
    operation: string;
    model?: string;
    reserveMicros: bigint;
    /** A free operation that still needs a wallet with money (402 at or below zero): count_tokens. */
    requireFunds?: boolean;
    reservationExpiresInMs?: number;
  },
): Promise<Charge> {
  const at = new Date();
  const charge: Charge = {
    requestLogId: randomUUID(),
    caller,
    operation: input.operation,
    model: input.model,
    startedAt: at.getTime(),
    closed: false,
  };
  const admission = await withLoaded(ctx, caller, () =>
    admitStep(ctx.redis, ctx.config.REDIS_PREFIX, {
      organizationId: caller.organizationId,
      projectId: caller.projectId,
      holdId: charge.requestLogId,
      amount: input.reserveMicros,
      requireFunds: input.requireFunds === true,
      holdExpiresAt: at.getTime() + (input.reservationExpiresInMs ?? ctx.config.GATEWAY_HOLD_MS),
      backlogLimit: ctx.config.LEDGER_BACKLOG_LIMIT,
      at,
    }),
  );
  switch (admission.step) {
    case 'admitted':
      if (input.reservationExpiresInMs === undefined) {
        renewWhileOpen(ctx, charge, ctx.config.GATEWAY_HOLD_MS);
        openHere.add(charge);
      }
      return charge;
    case 'balance':
      await countRefusal(ctx, caller, 'balance', at);
      throw input.reserveMicros > 0n ? insufficientBalance(input.reserveMicros) : walletEmpty();
    case 'inactive':
      await countRefusal(ctx, caller, 'inactive', at);
      throw walletInactive();
    case 'backlog':
      await countRefusal(ctx, caller, 'backlog', at);
      throw ledgerBacklogged();
    case 'quota': {
      const limit = admission.limit as QuotaLimitName;
      await countRefusal(ctx, caller, limit, at);
      throw quotaExceeded(rejection(limit, at, admission.monthStart), caller.projectId);
    }
  }
}

/** What a settlement did: the amount charged (at most the cost), or nothing when its hold was already settled. */
export type Settled = { charged: bigint; replayed: boolean };

/** Settles once: later calls for the same charge do nothing (a stream may end and close in the same tick). */
export async function closeCharge(ctx: Ctx, charge: Charge, outcome: Outcome): Promise<Settled | undefined> {
  if (charge.closed) return undefined;
  charge.closed = true;
  clearInterval(charge.renewal);
  try {
    return await settle(ctx, charge, outcome);
  } finally {
    leftHere(charge);
  }
}

async function settle(ctx: Ctx, charge: Charge, outcome: Outcome): Promise<Settled> {
  const usage = outcome.usage ?? zeroUsage;
  const cost = outcome.costMicros;
  const at = new Date();
  const { caller } = charge;
  const entry = encodeEntry({
    id: charge.requestLogId,
    organizationId: caller.organizationId,
    projectId: caller.projectId,
    apiKeyId: caller.keyId ?? null,
    operation: charge.operation,
    model: outcome.servedModel ?? charge.model ?? null,
    status: outcome.status,
    httpStatus: outcome.httpStatus ?? null,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadTokens: usage.cacheReadTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    cost: cost.toString(),
    latencyMs: at.getTime() - charge.startedAt,
    errorMessage: outcome.errorMessage ?? null,
    correlationId: currentCorrelationId() ?? null,
    startedAt: charge.startedAt,
    finishedAt: at.getTime(),
  });
  const settled = await withLoaded(ctx, caller, () =>
    settleStep(ctx.redis, ctx.config.REDIS_PREFIX, {
      organizationId: caller.organizationId,
      projectId: caller.projectId,
      holdId: charge.requestLogId,
      actual: cost,
      tokens: totalTokens(usage),
      entry,
      at,
    }),
  );
  // A replay (the hold was already settled, e.g. by a worker's earlier try) counts and charges nothing.
  if (!settled.replayed) {
    recordSettledRequest({ operation: charge.operation, status: outcome.status, usage, costMicros: cost });
    if (settled.charged < cost) {
      ctx.logger.warn(
        {
          requestLogId: charge.requestLogId,
          organizationId: caller.organizationId,
          uncollected: String(cost - settled.charged),
        },
        'actual cost exceeded what the wallet could cover; the rest is uncollected',
      );
    }
  }
  // The first entry of an empty stream asks for a write; later ones join the batch that write will take.
  if (settled.streamLength === 1) await requestLedgerWrite(ctx, caller.organizationId);
  return { charged: settled.charged, replayed: settled.replayed };
}
