// OpenAPI paths of publishing: namespaces, drafts, versions, review submission, skill bundle upload.
import { z } from 'zod';
import { itemTypes } from '../../../shared/catalog/item-types.js';
import { versionInputSchema } from '../../../shared/catalog/version-payloads.js';
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { draftBody, draftPatchBody, publisherBody, submitBody } from './publisher.schemas.js';

const base = '/api/v1/publisher';
/** The body depends on {type}: one alternative per catalog type. */
const perType = (schemaOf: (type: (typeof itemTypes)[number]) => z.ZodType) =>
  z.union(itemTypes.map((type) => schemaOf(type)) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);

export const publisherPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Publishing', [
    {
      method: 'post',
      path: `${base}/publishers`,
      summary: 'Create a publisher namespace',
      access: 'bearer',
      body: publisherBody,
    },
    { method: 'get', path: `${base}/publishers`, summary: 'My publisher namespaces', access: 'bearer' },
    { method: 'get', path: `${base}/{type}/mine`, summary: 'My items of the type', access: 'bearer' },
    {
      method: 'post',
      path: `${base}/{type}/drafts`,
      summary: 'Create a draft',
      access: 'bearer',
      body: perType(draftBody),
    },
    { method: 'get', path: `${base}/{type}/{id}`, summary: 'One of my items', access: 'bearer' },
    {
      method: 'put',
      path: `${base}/{type}/{id}/draft`,
      summary: 'Update a draft',
      access: 'bearer',
      body: perType(draftPatchBody),
    },
    {
      method: 'post',
      path: `${base}/{type}/{id}/versions`,
      summary: 'Add a version',
      access: 'bearer',
      body: perType(versionInputSchema),
    },
    {
      method: 'post',
      path: `${base}/{type}/{id}/submit-review`,
      summary: 'Submit for review',
      access: 'bearer',
      body: submitBody,
    },
    { method: 'post', path: `${base}/{type}/{id}/withdraw`, summary: 'Withdraw from review', access: 'bearer' },
    {
      method: 'post',
      path: `${base}/skill/{skillId}/versions/{versionId}/package`,
      summary: 'Upload the skill bundle (zip) of a version',
      access: 'bearer',
      multipartFiles: ['file'],
    },
  ]);
