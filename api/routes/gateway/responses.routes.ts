// POST /v1/responses: OpenAI's Responses API translated onto the Messages upstream, with the same admission,
// reservation, settlement and request log as /v1/messages and /v1/chat/completions. The gateway is stateless: it
// keeps no responses, so retrieving or deleting one is a 404 that says so.
import { notFound } from '../../../shared/errors/app-error.js';
import {
  finishJsonMessages,
  type MessagesRequest,
  settleStream,
  startMessages,
} from '../../../shared/gateway/messages-gateway.js';
import { StreamUsageMeter } from '../../../shared/gateway/messages-usage.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { messagesToResponse, responseEcho } from '../../../shared/gateway/responses/from-messages.js';
import { ResponseStreamTranslator } from '../../../shared/gateway/responses/response-stream.js';
import { responsesToMessages } from '../../../shared/gateway/responses/to-messages.js';
import { relaySse } from '../../http/sse-relay.js';
import { body } from '../../http/validate.js';
import { gatewayCallerOf } from '../../middleware/gateway-auth.js';
import type { Route } from '../route.js';
import { gatewayCaller } from './gateway-route.js';
import { responsesBody } from './responses.schemas.js';

const createResponse: Route = {
  method: 'post',
  path: '/responses',
  summary:
    'OpenAI Responses (stateless), served by the Messages upstream; `stream: true` answers with server-sent events',
  ...gatewayCaller,
  hotPath: true,
  gatewayAccounting: 'paid',
  body: responsesBody,
  content: 'json-or-sse',
  handler: (ctx) => {
    const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
    return async (req, res) => {
      const input = body(req, responsesBody, 'Responses.Invalid');
      const model = registry.resolve(input.model, 'messages');
      const translated = responsesToMessages(input, model);
      const abort = new AbortController();
      const request: MessagesRequest = {
        body: translated.body,
        ...(translated.bodyAtDefaultLimit ? { bodyAtDefaultLimit: translated.bodyAtDefaultLimit } : {}),
        model,
        operation: 'responses',
        signal: abort.signal,
      };
      const started = await startMessages(ctx, gatewayCallerOf(res), request);
      const answer = {
        model: model.id,
        formatTool: translated.formatTool,
        encryptedReasoning: input.include?.includes('reasoning.encrypted_content') ?? false,
        toolNames: translated.toolNames,
        echo: responseEcho(input),
      };
      if (!input.stream) {
        const { json, settlement } = await finishJsonMessages(ctx, request, started);
        res.status(started.status).json(messagesToResponse(json, answer));
        await settlement;
        return;
      }
      const meter = new StreamUsageMeter();
      const translator = new ResponseStreamTranslator(answer);
      const end = await relaySse(started.body, res, {
        onChunk: (chunk) => meter.feed(chunk),
        translate: (chunk) => translator.feed(chunk),
        trailer: () => translator.trailer(),
        abortUpstream: () => abort.abort(),
        errorEvent: (message) => translator.failed(message),
      });
      await settleStream(ctx, request, started, meter, end);
    };
  },
};

/** Retrieving, deleting, cancelling a response or listing its input items: nothing is kept to act on. */
const notKept = (method: 'get' | 'delete' | 'post', path: string, what: string): Route => ({
  method,
  path,
  summary: `${what}: the gateway keeps no responses (404)`,
  ...gatewayCaller,
  status: 404,
  returns: '`{error}`: responses are not stored (`store` is ignored); keep the answer you received.',
  handler: () => (req) => {
    throw notFound(
      'Responses.NotStored',
      `No response ${String(req.params.responseId)}: the gateway keeps no responses (store is ignored); keep the answer you received.`,
    );
  },
});

export const responsesRoutes: Route[] = [
  createResponse,
  notKept('get', '/responses/:responseId', 'Retrieve a response'),
  notKept('delete', '/responses/:responseId', 'Delete a response'),
  notKept('post', '/responses/:responseId/cancel', 'Cancel a response'),
  notKept('get', '/responses/:responseId/input_items', 'List the input items of a response'),
];
