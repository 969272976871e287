// /v1/messages through the gateway: reserve and admit, call the upstream, and turn its answer into either a JSON
// body or a stream whose usage is metered for the one settlement at the end.
import type { Readable } from 'node:stream';
import type { AppContext } from '../context.js';
import { AppError } from '../errors/app-error.js';
import { isOutboundRequestError } from '../http/index.js';
import { anthropicMessagesProvider, type MessagesCall } from '../providers/messages/anthropic-messages.js';
import { type Charge, closeCharge, openCharge } from './accounting.js';
import type { GatewayCaller } from './gateway-caller.js';
import { estimateInputTokens, maxMessagesCostMicros } from './messages-estimate.js';
import { usageOf } from './messages-usage.js';
import type { ModelEntry } from './model-registry.js';
import { tokenCostMicros } from './pricing.js';

export type MessagesRequest = {
  body: Record<string, unknown> & { model: string; max_tokens?: number; messages: unknown; stream?: boolean };
  model: ModelEntry;
  operation: 'messages' | 'count_tokens';
  version?: string;
  beta?: string;
  signal: AbortSignal;
};

export type StartedMessages = { charge: Charge; status: number; body: Readable; contentType: string };

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

/** An upstream error answer, as the caller sees it: its status and Anthropic error type when it gave one. */
function upstreamFailure(status: number, text: string): AppError {
  let message = `The upstream answered ${status}.`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } };
    if (parsed.error?.message) message = parsed.error.message;
  } catch {}
  // The upstream refusing the gateway's own credentials is the gateway's fault, not the caller's.
  const mapped = status === 529 ? 529 : status === 401 || status === 403 || status >= 500 ? 500 : status;
  return new AppError(`Upstream.Status${status}`, mapped, message);
}

export async function startMessages(
  ctx: AppContext,
  caller: GatewayCaller,
  req: MessagesRequest,
): Promise<StartedMessages> {
  const reserveMicros =
    req.operation === 'messages'
      ? maxMessagesCostMicros(req.model, estimateInputTokens(req.body as never), req.body.max_tokens ?? 0)
      : 0n;
  const charge = await openCharge(ctx, caller, { operation: req.operation, model: req.model.id, reserveMicros });
  const call: MessagesCall = {
    path: req.operation === 'messages' ? '/v1/messages' : '/v1/messages/count_tokens',
    body: { ...req.body, model: req.model.upstreamModel },
    signal: req.signal,
    ...(req.version ? { version: req.version } : {}),
    ...(req.beta ? { beta: req.beta } : {}),
  };
  try {
    const reply = await anthropicMessagesProvider(ctx.config).call(call);
    if (reply.status >= 400) {
      const failure = upstreamFailure(reply.status, await readSmall(reply.body));
      await closeCharge(ctx, charge, {
        status: 'failed',
        httpStatus: reply.status,
        costMicros: 0n,
        errorMessage: failure.message,
      });
      throw failure;
    }
    const contentType = String(reply.headers['content-type'] ?? 'application/json');
    return { charge, status: reply.status, body: reply.body, contentType };
  } catch (err) {
    if (err instanceof AppError) throw err;
    const message = isOutboundRequestError(err) ? err.message : 'The upstream could not be reached.';
    await closeCharge(ctx, charge, { status: 'failed', costMicros: 0n, errorMessage: message });
    throw new AppError('Upstream.Unavailable', 529, message, { cause: err });
  }
}

/** Reads a non-streamed answer, settles it, and returns the JSON to send. */
export async function finishJsonMessages(ctx: AppContext, req: MessagesRequest, started: StartedMessages) {
  const chunks: Buffer[] = [];
  for await (const chunk of started.body) chunks.push(chunk as Buffer);
  const json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { usage?: Parameters<typeof usageOf>[0] };
  const usage = req.operation === 'messages' ? usageOf(json.usage) : undefined;
  await closeCharge(ctx, started.charge, {
    status: 'succeeded',
    httpStatus: started.status,
    ...(usage ? { usage } : {}),
    costMicros: usage ? tokenCostMicros(req.model, usage) : 0n,
  });
  return json;
}
