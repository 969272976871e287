// POST /v1/messages (JSON or a relayed SSE stream) and /v1/messages/count_tokens, in Anthropic's wire format.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors/app-error.js';
import { closeCharge } from '../../../shared/gateway/accounting.js';
import { finishJsonMessages, type MessagesRequest, startMessages } from '../../../shared/gateway/messages-gateway.js';
import { StreamUsageMeter } from '../../../shared/gateway/messages-usage.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { tokenCostMicros } from '../../../shared/gateway/pricing.js';
import { relaySse } from '../../http/sse-relay.js';
import { body } from '../../http/validate.js';
import { gatewayAuth, gatewayCallerOf } from '../../middleware/gateway-auth.js';
import { countTokensBody, messagesBody } from './messages.schemas.js';

const errorEvent = (message: string) =>
  `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`;

export function messagesRoutes(ctx: AppContext): Router {
  const router = Router();
  const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
  const auth = gatewayAuth(ctx, { allowXApiKey: true });

  router.post('/v1/messages', ...auth, async (req, res) => {
    const input = body(req, messagesBody, 'Messages.Invalid');
    const model = registry.resolve(input.model, 'messages');
    if (input.thinking?.type === 'enabled' && !model.supportsThinking) {
      throw badRequest('Messages.ThinkingUnsupported', `${model.id} does not support extended thinking.`);
    }
    const abort = new AbortController();
    const request: MessagesRequest = {
      body: input,
      model,
      operation: 'messages',
      signal: abort.signal,
      ...(req.header('anthropic-version') ? { version: req.header('anthropic-version') } : {}),
      ...(req.header('anthropic-beta') ? { beta: req.header('anthropic-beta') } : {}),
    };
    const started = await startMessages(ctx, gatewayCallerOf(res), request);
    res.setHeader('request-id', String(res.getHeader('x-correlation-id')));
    if (!input.stream) {
      res.status(started.status).json(await finishJsonMessages(ctx, request, started));
      return;
    }
    const meter = new StreamUsageMeter();
    const end = await relaySse(started.body, res, {
      onChunk: (chunk) => meter.feed(chunk),
      abortUpstream: () => abort.abort(),
      errorEvent,
    });
    const usage = meter.billable();
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
      costMicros: tokenCostMicros(model, usage),
      ...(meter.upstreamError ? { errorMessage: meter.upstreamError } : {}),
    });
  });

  router.post('/v1/messages/count_tokens', ...auth, async (req, res) => {
    const input = body(req, countTokensBody, 'Messages.Invalid');
    const model = registry.resolve(input.model, 'messages');
    const request: MessagesRequest = {
      body: input as MessagesRequest['body'],
      model,
      operation: 'count_tokens',
      signal: new AbortController().signal,
      ...(req.header('anthropic-version') ? { version: req.header('anthropic-version') } : {}),
      ...(req.header('anthropic-beta') ? { beta: req.header('anthropic-beta') } : {}),
    };
    const started = await startMessages(ctx, gatewayCallerOf(res), request);
    res.setHeader('request-id', String(res.getHeader('x-correlation-id')));
    res.status(started.status).json(await finishJsonMessages(ctx, request, started));
  });

  return router;
}
