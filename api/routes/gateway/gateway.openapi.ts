// OpenAPI paths of the AI gateway's models and Anthropic-compatible messages routes.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { countTokensBody, messagesBody } from './messages.schemas.js';

export const gatewayPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Gateway', [
    { method: 'get', path: '/v1/models', summary: 'Models of the gateway (OpenAI list shape)', access: 'gateway' },
    {
      method: 'post',
      path: '/v1/messages',
      summary: 'Anthropic Messages; `stream: true` answers with server-sent events',
      access: 'gateway',
      body: messagesBody,
      content: 'json-or-sse',
    },
    {
      method: 'post',
      path: '/v1/messages/count_tokens',
      summary: 'Count the input tokens of a messages request',
      access: 'gateway',
      body: countTokensBody,
    },
  ]);
