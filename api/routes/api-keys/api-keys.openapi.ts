// OpenAPI paths of API keys, their usage and daily-quota requests.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { createApiKeyBody, quotaRequestBody, usageQuery } from './api-keys.schemas.js';

const base = '/api/v1/api-keys';

export const apiKeysPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'API keys', [
    { method: 'get', path: base, summary: 'List the API keys of the account', access: 'bearer' },
    {
      method: 'post',
      path: base,
      summary: 'Create an API key (the token is shown once)',
      access: 'bearer',
      body: createApiKeyBody,
    },
    {
      method: 'get',
      path: `${base}/usage`,
      summary: 'Daily usage of the account quota',
      access: 'bearer',
      query: usageQuery,
    },
    {
      method: 'post',
      path: `${base}/quota-requests`,
      summary: 'Ask for a higher daily quota',
      access: 'bearer',
      body: quotaRequestBody,
    },
    { method: 'get', path: `${base}/quota-requests/mine`, summary: 'My quota requests', access: 'bearer' },
    { method: 'post', path: `${base}/{keyId}/enable`, summary: 'Enable a key', access: 'bearer' },
    { method: 'post', path: `${base}/{keyId}/disable`, summary: 'Disable a key', access: 'bearer' },
    { method: 'delete', path: `${base}/{keyId}`, summary: 'Delete a key', access: 'bearer' },
  ]);
