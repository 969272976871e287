// OpenAPI paths of the gateway's video generation and web search/fetch routes.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { createVideoBody, listVideosQuery } from './videos.schemas.js';
import { webFetchBody, webSearchBody } from './web.schemas.js';

export const videosAndWebPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Gateway', [
    {
      method: 'post',
      path: '/v1/videos',
      summary: 'Create a video task (JSON, or multipart/form-data with the same fields; Idempotency-Key honoured)',
      access: 'gateway',
      body: createVideoBody,
    },
    { method: 'get', path: '/v1/videos', summary: 'List video tasks', access: 'gateway', query: listVideosQuery },
    { method: 'get', path: '/v1/videos/{id}', summary: 'A video task', access: 'gateway' },
    {
      method: 'get',
      path: '/v1/videos/{id}/content',
      summary: 'Redirect to the finished video file',
      access: 'gateway',
      status: 302,
      content: 'none',
    },
    { method: 'post', path: '/v1/videos/{id}/cancel', summary: 'Cancel a video task', access: 'gateway' },
    { method: 'post', path: '/v1/web/search', summary: 'Web search', access: 'gateway', body: webSearchBody },
    {
      method: 'post',
      path: '/v1/web/fetch',
      summary: 'Fetch and extract up to 20 URLs',
      access: 'gateway',
      body: webFetchBody,
    },
  ]);
