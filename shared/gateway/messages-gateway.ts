// A Messages call through the gateway (/v1/messages, and /v1/chat/completions and /v1/responses translated onto it):
// reserve and admit, call the upstream, and turn its answer into either a JSON body or a stream whose usage is
// metered for the one settlement at the end.
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { isOutboundRequestError } from '../http/index.js';
import { anthropicMessagesProvider, type MessagesCall } from '../providers/messages/anthropic-messages.js';
import { type Charge, closeCharge, openCharge } from './accounting.js';
import { answerCostMicros } from './answer-cost.js';
import type { GatewayCaller } from './gateway-caller.js';
import { messagesReservationMicros } from './messages-estimate.js';
import { servedModel } from './messages-models.js';
import {
  type AdvisorCall,
  advisorCallsOf,
  type StreamUsageMeter,
  type UsageFields,
  usageOf,
} from './messages-usage.js';
import type { ModelEntry } from './model-registry.js';
import { type PriceOptionValues, priceOptionsOf } from './price-options.js';
import type { TokenUsage } from './pricing.js';

export type MessagesRequest = {
  /** The body to forward, every model id already mapped to its upstream id (see messages-models). */
  body: Record<string, unknown>;
  /** The same request at the 4,096-token default output limit (a translated request that named no limit asks for the
   * model's whole output): forwarded instead when the wallet cannot hold `body` (see admit). */
  bodyAtDefaultLimit?: Record<string, unknown>;
  model: ModelEntry;
  /** Every model that may serve the request (its own, fallbacks'); the answer is billed at the one that did. */
  servingModels?: ModelEntry[];
  /** The models its advisor tools name: an advisor sub-inference is billed at its model's prices. */
  advisorModels?: ModelEntry[];
  /** What the request log and the metrics call it; `count_tokens` is free. */
  operation: 'messages' | 'count_tokens' | 'chat_completions' | 'responses';
  version?: string;
  beta?: string;
  query?: string;
  signal: AbortSignal;
};

export type StartedMessages = {
  charge: Charge;
  status: number;
  body: Readable;
  contentType: string;
  /** The request's price-raising options: what the settlement multiplies the token prices by, as the hold did. */
  priceOptions?: PriceOptionValues;
  /** What the request holds: the most an estimated usage (a stream cut before its final figures) is charged. */
  reservedMicros: bigint;
};

const MAX_ERROR_BODY = 64 * 1024;

async function readSmall(body: Readable): Promise<string> {
  let out = '';
  for await (const chunk of body) {
    out += chunk.toString();
    if (out.length > MAX_ERROR_BODY) break;
  }
  body.destroy();
  return out;
}

/** What the caller is told when the upstream failed on the gateway's side (its credentials, its own fault). */
const UPSTREAM_FAILED = 'The upstream model provider failed to answer this request; try again shortly.';
const UPSTREAM_UNREACHABLE = 'The upstream model provider could not be reached; try again shortly.';

/**
 * An upstream error answer, as the caller sees it, and what the operator's log keeps. A refusal of the caller's own
 * request (400, 404, 413, 429, 529 overloaded…) passes through with its status and message: it tells the caller what
 * to change. One that is the gateway's side (the upstream refusing the operator's credentials, 401/403, or failing,
 * 5xx) is a 500 with a fixed message: the upstream's text can name the operator's key or hosts (a security review
 * found an upstream 401 echoing the key to the caller), so it goes only to the log.
 */
function upstreamFailure(status: number, text: string): { error: AppError; upstreamMessage: string } {
  let upstreamMessage = `The upstream answered ${status}.`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } };
    if (parsed.error?.message) upstreamMessage = parsed.error.message;
  } catch {}
  const gatewaySide = status !== 529 && (status === 401 || status === 403 || status >= 500);
  const error = gatewaySide
    ? new AppError(`Upstream.Status${status}`, 500, UPSTREAM_FAILED)
    : new AppError(`Upstream.Status${status}`, status, upstreamMessage);
  return { error, upstreamMessage };
}

/**
 * Admits a request, holding the most `body` can cost. A translated request that named no output limit asks for the
 * model's whole output; when the wallet cannot hold that, it is admitted once more at the 4,096 default, the limit it
 * had before (a refused admission holds and counts nothing, so nothing is left half done): a small balance is served as
 * before, a funded one gets the whole output, and only a wallet that cannot hold even 4,096 answers 402.
 */
async function admit(ctx: AppContext, caller: GatewayCaller, req: MessagesRequest, priceOptions?: PriceOptionValues) {
  const paid = req.operation !== 'count_tokens';
  const servingModels = req.servingModels ?? [req.model];
  const open = async (body: Record<string, unknown>) => {
    const reserveMicros = paid ? messagesReservationMicros(body, servingModels, priceOptions) : 0n;
    // count_tokens holds nothing but needs a wallet with money: else an organization that never paid (any free
    // account's own) made the upstream calls and request logs it likes at no cost (a review finding).
    const charge = await openCharge(ctx, caller, {
      operation: req.operation,
      model: req.model.id,
      reserveMicros,
      requireFunds: !paid,
    });
    return { charge, body, reserveMicros };
  };
  try {
    return await open(req.body);
  } catch (err) {
    const refusedForBalance = err instanceof AppError && err.code === 'Wallet.InsufficientBalance';
    if (!req.bodyAtDefaultLimit || !refusedForBalance) throw err;
    return open(req.bodyAtDefaultLimit);
  }
}

export async function startMessages(
  ctx: AppContext,
  caller: GatewayCaller,
  req: MessagesRequest,
): Promise<StartedMessages> {
  const paid = req.operation !== 'count_tokens';
  // Before anything is held or counted: an option value the registry cannot price (fast mode on a model without a
  // multiplier) is a 400, never a premium sold at the standard price. count_tokens is free: nothing to price.
  const priceOptions = paid ? priceOptionsOf(req.body, req.servingModels ?? [req.model]) : undefined;
  const { charge, body, reserveMicros } = await admit(ctx, caller, req, priceOptions);
  const call: MessagesCall = {
    path: paid ? '/v1/messages' : '/v1/messages/count_tokens',
    body,
    signal: req.signal,
    ...(req.version ? { version: req.version } : {}),
    ...(req.beta ? { beta: req.beta } : {}),
    ...(req.query ? { query: req.query } : {}),
  };
  try {
    const reply = await anthropicMessagesProvider(ctx.config).call(call);
    if (reply.status >= 400) {
      const { error, upstreamMessage } = upstreamFailure(reply.status, await readSmall(reply.body));
      if (error.status === 500) {
        ctx.logger.warn({ upstreamStatus: reply.status, upstreamMessage }, 'upstream refused or failed a request');
      }
      await closeCharge(ctx, charge, {
        status: 'failed',
        httpStatus: reply.status,
        costMicros: 0n,
        errorMessage: error.message,
      });
      throw error;
    }
    const contentType = String(reply.headers['content-type'] ?? 'application/json');
    return {
      charge,
      status: reply.status,
      body: reply.body,
      contentType,
      reservedMicros: reserveMicros,
      ...(priceOptions ? { priceOptions } : {}),
    };
  } catch (err) {
    if (err instanceof AppError) throw err;
    // The outbound error names the configured upstream host: the log keeps it, the caller and request log do not.
    const reason = isOutboundRequestError(err) ? err.message : String(err);
    ctx.logger.warn({ reason }, 'upstream could not be reached');
    await closeCharge(ctx, charge, { status: 'failed', costMicros: 0n, errorMessage: UPSTREAM_UNREACHABLE });
    throw new AppError('Upstream.Unavailable', 529, UPSTREAM_UNREACHABLE, { cause: err });
  }
}

/**
 * The registry id of the model an answer says served it (its `model`, among the request's own and its fallbacks'), for
 * the request log and the project's usage: the model its cost is priced at (answer-cost.ts). An answer that names none
 * of them, or none at all (a stream cut before `message_start`), keeps the request's own.
 */
const servedModelId = (req: MessagesRequest, upstreamModel: unknown) =>
  servedModel(req.servingModels ?? [req.model], upstreamModel).id;

/** The cost of an answer: answer-cost.ts, with the request's models and price-raising options. */
const costOf = (
  req: MessagesRequest,
  started: StartedMessages,
  upstreamModel: unknown,
  usage: TokenUsage,
  advisor: AdvisorCall[],
) =>
  answerCostMicros(
    { servingModels: req.servingModels ?? [req.model], advisorModels: req.advisorModels ?? [] },
    started.priceOptions,
    upstreamModel,
    usage,
    advisor,
  );

/**
 * Reads a non-streamed answer and issues its settlement: returns the answer (parsed, and its bytes as received, which
 * a route in the upstream's own dialect forwards unchanged) and the settlement in flight. The
 * route sends the answer, then awaits the settlement, so the client waits for no bookkeeping at all; the settlement's
 * Redis step is already on the connection by then, ahead of anything a later request of this process asks of
 * Redis. A settlement that fails after the answer went out is logged (its hold then expires: never a double charge).
 */
export async function finishJsonMessages(
  ctx: AppContext,
  req: MessagesRequest,
  started: StartedMessages,
): Promise<{ json: Record<string, unknown>; bytes: Buffer; settlement: Promise<void> }> {
  let bytes: Buffer;
  let json: Record<string, unknown>;
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of started.body) chunks.push(chunk as Buffer);
    bytes = Buffer.concat(chunks);
    json = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch (err) {
    // An answer cut short or not JSON: the hold goes back now (it would be renewed while open) and the log says so.
    await closeCharge(ctx, started.charge, {
      status: 'failed',
      httpStatus: started.status,
      costMicros: 0n,
      errorMessage: 'The upstream answer could not be read.',
    });
    throw err;
  }
  const fields = json.usage as UsageFields | undefined;
  const usage = req.operation === 'count_tokens' ? undefined : usageOf(fields);
  const settlement = closeCharge(ctx, started.charge, {
    status: 'succeeded',
    httpStatus: started.status,
    ...(usage ? { usage } : {}),
    costMicros: usage ? costOf(req, started, json.model, usage, advisorCallsOf(fields)) : 0n,
    servedModel: servedModelId(req, json.model),
  }).then(
    () => undefined,
    (err: Error) =>
      ctx.logger.error(
        { requestLogId: started.charge.requestLogId, err: err.message },
        'settlement failed after the answer was sent; the hold will expire',
      ),
  );
  return { json, bytes, settlement };
}

/** Settles a relayed stream once it ended: billed for what the meter saw, whatever way it ended. */
export async function settleStream(
  ctx: AppContext,
  req: MessagesRequest,
  started: StartedMessages,
  meter: StreamUsageMeter,
  end: RelayEnd,
): Promise<void> {
  const usage = meter.billable();
  const cost = costOf(req, started, meter.servedModel, usage, meter.advisorCalls());
  const status =
    end.reason === 'client_closed'
      ? 'client_closed'
      : end.reason === 'upstream_error' || meter.upstreamError || !meter.completed
        ? 'failed'
        : 'succeeded';
  await closeCharge(ctx, started.charge, {
    status,
    httpStatus: 200,
    usage,
    // An estimate (bytes over three) can pass the bound the hold was priced from (English runs about four bytes a
    // token): it is charged no more than the hold, the most the request could cost. The upstream's own figures are
    // charged as they are.
    costMicros: meter.estimated && cost > started.reservedMicros ? started.reservedMicros : cost,
    ...(meter.upstreamError ? { errorMessage: meter.upstreamError } : {}),
    servedModel: servedModelId(req, meter.servedModel),
  });
}

/** How a relayed stream ended (see api/http/sse-relay). */
export type RelayEnd = { reason: 'completed' | 'upstream_error' | 'client_closed' };
