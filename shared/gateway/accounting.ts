// Accounting of one counted gateway request, exactly once: the wallet reservation of its most possible cost,
// the project quota admission (seed order, one Redis step), then at the end ONE settlement that writes the
// wallet record, the request log and the project's tokens — or a release when nothing billable happened.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../context.js';
import { requestLogs } from '../db/schema/index.js';
import { currentCorrelationId } from '../logging/correlation.js';
import { recordSettledRequest } from '../metrics/metrics.js';
import { QuotaCounters, quotaExceeded } from '../quota/quota-counters.js';
import { release, reserve, settle } from '../wallet/reservations.js';
import type { GatewayCaller } from './gateway-caller.js';
import { type TokenUsage, totalTokens } from './pricing.js';

export type Charge = {
  readonly requestLogId: string;
  readonly caller: GatewayCaller;
  readonly operation: string;
  readonly model: string | undefined;
  readonly startedAt: number;
  reservationId: string | undefined;
  closed: boolean;
};

export type Outcome = {
  status: 'succeeded' | 'failed' | 'cancelled' | 'client_closed';
  httpStatus?: number;
  usage?: TokenUsage;
  costMicros: bigint;
  errorMessage?: string;
};

const zeroUsage: TokenUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

export async function openCharge(
  ctx: AppContext,
  caller: GatewayCaller,
  input: { operation: string; model?: string; reserveMicros: bigint; reservationExpiresInMs?: number },
): Promise<Charge> {
  const charge: Charge = {
    requestLogId: randomUUID(),
    caller,
    operation: input.operation,
    model: input.model,
    startedAt: Date.now(),
    reservationId: undefined,
    closed: false,
  };
  if (input.reserveMicros > 0n) {
    const reservation = await reserve(ctx, caller.organizationId, input.reserveMicros, {
      requestId: charge.requestLogId,
      ...(input.reservationExpiresInMs ? { expiresInMs: input.reservationExpiresInMs } : {}),
    });
    charge.reservationId = reservation.id;
  }
  try {
    const admission = await new QuotaCounters({ redis: ctx.redis, db: ctx.db, prefix: ctx.config.REDIS_PREFIX }).admit(
      caller.projectId,
    );
    if (!admission.admitted) throw quotaExceeded(admission);
  } catch (err) {
    if (charge.reservationId) await release(ctx, charge.reservationId);
    charge.closed = true;
    throw err;
  }
  return charge;
}

/** Settles once: later calls for the same charge do nothing (a stream may end and close in the same tick). */
export async function closeCharge(ctx: AppContext, charge: Charge, outcome: Outcome): Promise<void> {
  if (charge.closed) return;
  charge.closed = true;
  const usage = outcome.usage ?? zeroUsage;
  const cost = outcome.costMicros;
  const description = `${charge.operation}${charge.model ? ` ${charge.model}` : ''}`;
  // The log row first (idempotent on its id), then ONE wallet settlement keyed by the same id: a retried close
  // writes neither twice. Only the close that wrote the log row counts the request and its tokens (metrics and
  // quota): a replay after a crash would otherwise count them again.
  const logged = await ctx.db
    .insert(requestLogs)
    .values({
      id: charge.requestLogId,
      organizationId: charge.caller.organizationId,
      projectId: charge.caller.projectId,
      apiKeyId: charge.caller.keyId ?? null,
      operation: charge.operation,
      model: charge.model ?? null,
      status: outcome.status,
      httpStatus: outcome.httpStatus ?? null,
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      costMicros: cost,
      latencyMs: Date.now() - charge.startedAt,
      errorMessage: outcome.errorMessage ?? null,
      correlationId: currentCorrelationId() ?? null,
      finishedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: requestLogs.id });
  // Counted right after the log row, before the wallet: a close retried because the settlement failed still
  // counts the request once.
  if (logged.length > 0) {
    recordSettledRequest({ operation: charge.operation, status: outcome.status, usage, costMicros: cost });
    const tokens = totalTokens(usage);
    if (tokens > 0) {
      await new QuotaCounters({ redis: ctx.redis, db: ctx.db, prefix: ctx.config.REDIS_PREFIX }).recordTokens(
        charge.caller.projectId,
        tokens,
      );
    }
  }
  if (charge.reservationId) {
    if (cost > 0n) {
      await settle(ctx, charge.reservationId, cost, { requestLogId: charge.requestLogId, description });
    } else {
      await release(ctx, charge.reservationId);
    }
  }
}
