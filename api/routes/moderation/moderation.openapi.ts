// OpenAPI paths of moderation (Moderator or Admin; publisher verification Admin only).
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import {
  approveBody,
  categoryBody,
  featuredBody,
  queueQuery,
  rejectBody,
  reportsQuery,
  requestChangesBody,
  resolveBody,
  verifiedBody,
} from './moderation.schemas.js';

const base = '/api/v1/moderation';

export const moderationPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Moderation', [
    { method: 'get', path: `${base}/queue`, summary: 'Items waiting for review', access: 'bearer', query: queueQuery },
    { method: 'get', path: `${base}/reports`, summary: 'Reports', access: 'bearer', query: reportsQuery },
    {
      method: 'post',
      path: `${base}/reports/{id}/resolve`,
      summary: 'Resolve a report',
      access: 'bearer',
      body: resolveBody,
    },
    {
      method: 'put',
      path: `${base}/publishers/{slug}/verified`,
      summary: 'Verify a publisher (Admin)',
      access: 'bearer',
      body: verifiedBody,
    },
    {
      method: 'put',
      path: `${base}/{type}/categories/{slug}`,
      summary: 'Create or rename a category',
      access: 'bearer',
      body: categoryBody,
    },
    { method: 'get', path: `${base}/{type}/{id}`, summary: 'An item under review', access: 'bearer' },
    {
      method: 'put',
      path: `${base}/{type}/{id}/featured`,
      summary: 'Feature an item',
      access: 'bearer',
      body: featuredBody,
    },
    {
      method: 'post',
      path: `${base}/{type}/{id}/approve`,
      summary: 'Approve the version under review',
      access: 'bearer',
      body: approveBody,
    },
    {
      method: 'post',
      path: `${base}/{type}/{id}/request-changes`,
      summary: 'Ask the publisher for changes',
      access: 'bearer',
      body: requestChangesBody,
    },
    {
      method: 'post',
      path: `${base}/{type}/{id}/reject`,
      summary: 'Reject the version under review',
      access: 'bearer',
      body: rejectBody,
    },
  ]);
