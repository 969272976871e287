// OpenAPI paths of the public catalog reads, reports and ratings under /api/v1/{type} (mcp, skill, agent, soul).
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { listQuery, ratingBody, reportBody } from './catalog.schemas.js';

const base = '/api/v1/{type}';

export const catalogPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Catalog', [
    {
      method: 'get',
      path: base,
      summary: 'List published items (search, filters, sort, paging)',
      access: 'public',
      query: listQuery,
    },
    { method: 'get', path: `${base}/categories`, summary: 'Categories of the type', access: 'public' },
    { method: 'get', path: `${base}/{slug}`, summary: 'An item with its latest version', access: 'public' },
    { method: 'get', path: `${base}/{slug}/versions`, summary: 'Published versions of an item', access: 'public' },
    { method: 'get', path: `${base}/{slug}/versions/{version}`, summary: 'One version of an item', access: 'public' },
    {
      method: 'get',
      path: `${base}/{slug}/prompt.txt`,
      summary: 'The prompt of an item as text',
      access: 'public',
      content: 'text',
    },
    { method: 'post', path: `${base}/{slug}/report`, summary: 'Report an item', access: 'bearer', body: reportBody },
    { method: 'put', path: `${base}/{slug}/rating`, summary: 'Rate an item (1-5)', access: 'bearer', body: ratingBody },
  ]);
