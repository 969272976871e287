// POST /v1/messages (JSON or a relayed SSE stream) and /v1/messages/count_tokens, in Anthropic's wire format.
import { isUtf8 } from 'node:buffer';
import type { Request, Response } from 'express';
import { badRequest } from '../../../shared/errors/app-error.js';
import {
  finishJsonMessages,
  type MessagesRequest,
  settleStream,
  startMessages,
} from '../../../shared/gateway/messages-gateway.js';
import { mapMessagesModels } from '../../../shared/gateway/messages-models.js';
import { StreamUsageMeter } from '../../../shared/gateway/messages-usage.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { checkMessagesOutputLimits } from '../../../shared/gateway/output-limit.js';
import { relaySse } from '../../http/sse-relay.js';
import { body } from '../../http/validate.js';
import { gatewayCallerOf } from '../../middleware/gateway-auth.js';
import type { Area } from '../route.js';
import { gatewayCaller } from './gateway-route.js';
import { countTokensBody, messagesBody } from './messages.schemas.js';

/**
 * The upstream's answer as it came: same dialect, nothing to change, and no re-serialising on the hot path. It parsed
 * as JSON, so it is sent as JSON in UTF-8 (as res.json would say), whatever type the upstream named; bytes that are
 * not valid UTF-8 are re-serialised from the parsed answer, as before.
 */
function forwardJson(res: Response, status: number, bytes: Buffer, json: unknown): void {
  const body = isUtf8(bytes) ? bytes : Buffer.from(JSON.stringify(json));
  res.status(status);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', body.length);
  res.end(body);
}

const errorEvent = (message: string) =>
  `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message } })}\n\n`;

/** The caller's protocol headers and query string, forwarded as they came. */
function passThrough(req: Request) {
  const query = req.originalUrl.indexOf('?');
  return {
    ...(req.header('anthropic-version') ? { version: req.header('anthropic-version') } : {}),
    ...(req.header('anthropic-beta') ? { beta: req.header('anthropic-beta') } : {}),
    ...(query >= 0 ? { query: req.originalUrl.slice(query + 1) } : {}),
  };
}

export const messagesArea: Area = {
  tag: 'Gateway',
  routes: [
    {
      method: 'post',
      path: '/',
      summary: 'Anthropic Messages; `stream: true` answers with server-sent events',
      ...gatewayCaller,
      hotPath: true,
      gatewayAccounting: 'paid',
      body: messagesBody,
      content: 'json-or-sse',
      handler: (ctx) => {
        const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
        return async (req, res) => {
          const input = body(req, messagesBody, 'Messages.Invalid');
          const { upstreamBody, model, servingModels, advisorModels } = mapMessagesModels(registry, input);
          checkMessagesOutputLimits(input, model, registry);
          const thinking = (input.thinking as { type?: unknown } | undefined)?.type;
          if (thinking !== undefined && thinking !== 'disabled' && !model.supportsThinking) {
            throw badRequest('Messages.ThinkingUnsupported', `${model.id} does not support extended thinking.`);
          }
          const abort = new AbortController();
          const request: MessagesRequest = {
            body: upstreamBody,
            model,
            servingModels,
            advisorModels,
            operation: 'messages',
            signal: abort.signal,
            ...passThrough(req),
          };
          const started = await startMessages(ctx, gatewayCallerOf(res), request);
          res.setHeader('request-id', String(res.getHeader('x-correlation-id')));
          if (!input.stream) {
            const { json, bytes, settlement } = await finishJsonMessages(ctx, request, started);
            forwardJson(res, started.status, bytes, json);
            await settlement;
            return;
          }
          const meter = new StreamUsageMeter();
          const end = await relaySse(started.body, res, {
            onChunk: (chunk) => meter.feed(chunk),
            abortUpstream: () => abort.abort(),
            errorEvent,
          });
          await settleStream(ctx, request, started, meter, end);
        };
      },
    },
    {
      method: 'post',
      path: '/count_tokens',
      summary: 'Count the input tokens of a messages request',
      ...gatewayCaller,
      hotPath: true,
      gatewayAccounting: 'funded',
      body: countTokensBody,
      handler: (ctx) => {
        const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
        return async (req, res) => {
          const input = body(req, countTokensBody, 'Messages.Invalid');
          const { upstreamBody, model } = mapMessagesModels(registry, input);
          const request: MessagesRequest = {
            body: upstreamBody,
            model,
            operation: 'count_tokens',
            signal: new AbortController().signal,
            ...passThrough(req),
          };
          const started = await startMessages(ctx, gatewayCallerOf(res), request);
          res.setHeader('request-id', String(res.getHeader('x-correlation-id')));
          const { json, bytes, settlement } = await finishJsonMessages(ctx, request, started);
          forwardJson(res, started.status, bytes, json);
          await settlement;
        };
      },
    },
  ],
};
