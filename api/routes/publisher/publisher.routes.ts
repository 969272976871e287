// Publisher routes (bearer + Publisher role): namespaces, own items, drafts, versions, submit-review, withdraw and
// unpublish. The skill bundle upload is the skill-package area.
import type { Response } from 'express';
import { z } from 'zod';
import {
  draftDetailReturns,
  MAX_PUBLISHERS_PER_ACCOUNT,
  MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT,
  MAX_VERSIONS_PER_ITEM,
} from '../../../shared/catalog/catalog-limits.js';
import { deleteDraft } from '../../../shared/catalog/draft-deletion.js';
import { addVersion, createDraft, updateDraft } from '../../../shared/catalog/drafts.js';
import { itemTypes } from '../../../shared/catalog/item-types.js';
import { createPublisher, listOwnPublishers } from '../../../shared/catalog/publishers.js';
import { submitForReview, withdrawFromReview } from '../../../shared/catalog/review-workflow.js';
import { unlistItem } from '../../../shared/catalog/unlisting.js';
import { versionInputSchema } from '../../../shared/catalog/version-payloads.js';
import { getDraftDetail, listOwnItems } from '../../../shared/catalog/workflow-reads.js';
import { pathParam } from '../../http/path-params.js';
import { body } from '../../http/validate.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';
import { itemIdParam, itemTypeOf, itemTypeParam } from '../catalog-params.js';
import {
  draftDetailHeaders,
  presentDraftDetail,
  presentMutation,
  presentOwnEntry,
  presentPublisher,
} from '../catalog-workflow.presenters.js';
import {
  deletedDraft,
  draftDetail,
  ownItemEntry,
  publisher as publisherSchema,
  workflowMutation,
} from '../catalog-workflow.responses.js';
import type { Area } from '../route.js';
import {
  draftBody,
  draftPatchBody,
  parseDraftInput,
  publisherBody,
  submitBody,
  unpublishBody,
} from './publisher.schemas.js';

/** The body depends on {type}: one alternative per catalog type. */
const perType = (schemaOf: (type: (typeof itemTypes)[number]) => z.ZodType) =>
  z.union(itemTypes.map((type) => schemaOf(type)) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);

const publisher = { access: 'bearer', dailyQuota: 'counted' } as const;
const ofType = { ...publisher, params: { type: itemTypeParam } };
const item = { ...publisher, params: { type: itemTypeParam, id: itemIdParam } };
const account = (res: Response) => principalOf(res).accountId;

export const publisherArea: Area = {
  tag: 'Publishing',
  // Guards sit on each route, so paths this area does not serve pass on without being authenticated here.
  before: (ctx, route) => [authenticate(ctx, route), requireRole('Publisher')],
  routes: [
    {
      method: 'post',
      path: '/publishers',
      summary: 'Create a publisher namespace',
      ...publisher,
      body: publisherBody,
      response: publisherSchema,
      conflicts: `Publisher.SlugExists: the slug is taken. Publisher.LimitReached: the account already owns ${MAX_PUBLISHERS_PER_ACCOUNT} namespaces.`,
      handler: (ctx) => async (req, res) => {
        const input = body(req, publisherBody, 'Publisher.Invalid');
        res.json(presentPublisher(await createPublisher(ctx.db, account(res), input)));
      },
    },
    {
      method: 'get',
      path: '/publishers',
      summary: 'My publisher namespaces',
      ...publisher,
      response: z.array(publisherSchema),
      handler: (ctx) => async (_req, res) => {
        res.json((await listOwnPublishers(ctx.db, account(res))).map(presentPublisher));
      },
    },
    {
      method: 'get',
      path: '/:type/mine',
      summary: 'My items of the type',
      ...ofType,
      response: z.array(ownItemEntry),
      handler: (ctx) => async (req, res) => {
        res.json((await listOwnItems(ctx.db, itemTypeOf(req), account(res))).map(presentOwnEntry));
      },
    },
    {
      method: 'post',
      path: '/:type/drafts',
      summary: 'Create a draft',
      ...ofType,
      body: perType(draftBody),
      response: workflowMutation,
      conflicts: `<Type>.SlugExists: the slug is taken. Draft.LimitReached: the account already holds ${MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT} items that are not published (drafts, in review, sent back, rejected, unpublished).`,
      handler: (ctx) => async (req, res) => {
        const type = itemTypeOf(req);
        const input = parseDraftInput(req, draftBody(type), 'Draft.Invalid');
        res.json(presentMutation(await createDraft(ctx, type, account(res), input)));
      },
    },
    {
      method: 'get',
      path: '/:type/:id',
      summary: 'One of my items',
      ...item,
      etag: 'The review revision (also `reviewRevision`) a moderator decides on.',
      returns: draftDetailReturns,
      response: draftDetail,
      handler: (ctx) => async (req, res) => {
        const detail = await getDraftDetail(ctx.db, itemTypeOf(req), pathParam(req, 'id'), account(res));
        res.set(draftDetailHeaders(detail)).json(presentDraftDetail(detail, ctx.storage));
      },
    },
    {
      method: 'put',
      path: '/:type/:id/draft',
      summary: 'Update a draft',
      ...item,
      body: perType(draftPatchBody),
      response: workflowMutation,
      handler: (ctx) => async (req, res) => {
        const type = itemTypeOf(req);
        const patch = parseDraftInput(req, draftPatchBody(type), 'Draft.Invalid');
        res.json(presentMutation(await updateDraft(ctx, type, account(res), pathParam(req, 'id'), patch)));
      },
    },
    {
      method: 'post',
      path: '/:type/:id/versions',
      summary: 'Add a version',
      ...item,
      body: perType(versionInputSchema),
      response: workflowMutation,
      conflicts: `Version.Exists: the version is not greater than every existing one. Version.LimitReached: the item already holds ${MAX_VERSIONS_PER_ITEM} versions.`,
      handler: (ctx) => async (req, res) => {
        const type = itemTypeOf(req);
        const input = body(req, versionInputSchema(type), 'Version.Invalid');
        res.json(presentMutation(await addVersion(ctx, type, account(res), pathParam(req, 'id'), input)));
      },
    },
    {
      method: 'post',
      path: '/:type/:id/submit-review',
      summary: 'Submit for review',
      ...item,
      body: submitBody,
      response: workflowMutation,
      handler: (ctx) => async (req, res) => {
        const type = itemTypeOf(req);
        const { comment } = body(req, submitBody, 'Review.Invalid');
        res.json(presentMutation(await submitForReview(ctx, type, account(res), pathParam(req, 'id'), comment)));
      },
    },
    {
      method: 'post',
      path: '/:type/:id/withdraw',
      summary: 'Withdraw from review',
      ...item,
      response: workflowMutation,
      handler: (ctx) => async (req, res) => {
        const type = itemTypeOf(req);
        res.json(presentMutation(await withdrawFromReview(ctx, type, account(res), pathParam(req, 'id'))));
      },
    },
    {
      method: 'post',
      path: '/:type/:id/unpublish',
      summary: 'Take a published item out of the public catalog',
      ...item,
      body: unpublishBody,
      response: workflowMutation,
      handler: (ctx) => async (req, res) => {
        const type = itemTypeOf(req);
        const { reason } = body(req, unpublishBody, 'Publisher.Invalid');
        const unlisting = { by: 'publisher' as const, accountId: account(res), reason };
        res.json(presentMutation(await unlistItem(ctx, type, pathParam(req, 'id'), unlisting)));
      },
    },
    {
      method: 'delete',
      path: '/:type/:id',
      summary: 'Delete an item that was never published (draft, sent back or rejected)',
      ...item,
      returns: 'The deleted item’s id and slug (the slug is free again).',
      response: deletedDraft,
      conflicts:
        '<Type>.AlreadyInReview: withdraw it first; <Type>.WasPublished: it has been public, unpublish it instead.',
      handler: (ctx) => async (req, res) => {
        const deleted = await deleteDraft(ctx, itemTypeOf(req), account(res), pathParam(req, 'id'));
        res.json({ deleted: true, ...deleted });
      },
    },
  ],
};
