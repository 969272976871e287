// POST /v1/chat/completions: OpenAI's Chat Completions translated onto the Messages upstream, with the same
// admission, reservation, settlement and request log as /v1/messages.
import {
  ChatStreamTranslator,
  chatStreamErrorEvent,
  messagesToChat,
} from '../../../shared/gateway/chat-completions/from-messages.js';
import { chatToMessages } from '../../../shared/gateway/chat-completions/to-messages.js';
import {
  finishJsonMessages,
  type MessagesRequest,
  settleStream,
  startMessages,
} from '../../../shared/gateway/messages-gateway.js';
import { StreamUsageMeter } from '../../../shared/gateway/messages-usage.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { relaySse } from '../../http/sse-relay.js';
import { body } from '../../http/validate.js';
import { gatewayCallerOf } from '../../middleware/gateway-auth.js';
import type { Route } from '../route.js';
import { chatCompletionBody } from './chat-completions.schemas.js';
import { gatewayCaller } from './gateway-route.js';

export const chatCompletionsRoute: Route = {
  method: 'post',
  path: '/chat/completions',
  summary: 'OpenAI Chat Completions, served by the Messages upstream; `stream: true` answers with server-sent events',
  ...gatewayCaller,
  hotPath: true,
  gatewayAccounting: 'paid',
  body: chatCompletionBody,
  content: 'json-or-sse',
  handler: (ctx) => {
    const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
    return async (req, res) => {
      const input = body(req, chatCompletionBody, 'ChatCompletions.Invalid');
      const model = registry.resolve(input.model, 'messages');
      const translated = chatToMessages(input, model);
      const abort = new AbortController();
      const request: MessagesRequest = {
        body: translated.body,
        ...(translated.bodyAtDefaultLimit ? { bodyAtDefaultLimit: translated.bodyAtDefaultLimit } : {}),
        model,
        operation: 'chat_completions',
        signal: abort.signal,
      };
      const started = await startMessages(ctx, gatewayCallerOf(res), request);
      const answer = { model: model.id, formatTool: translated.formatTool };
      if (!input.stream) {
        const { json, settlement } = await finishJsonMessages(ctx, request, started);
        res.status(started.status).json(messagesToChat(json, answer));
        await settlement;
        return;
      }
      const meter = new StreamUsageMeter();
      const translator = new ChatStreamTranslator({
        ...answer,
        includeUsage: input.stream_options?.include_usage === true,
      });
      const end = await relaySse(started.body, res, {
        onChunk: (chunk) => meter.feed(chunk),
        translate: (chunk) => translator.feed(chunk),
        trailer: () => translator.trailer(),
        abortUpstream: () => abort.abort(),
        errorEvent: chatStreamErrorEvent,
      });
      await settleStream(ctx, request, started, meter, end);
    };
  },
};
