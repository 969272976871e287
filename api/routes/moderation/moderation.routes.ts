// Moderation (Moderator or Admin): the review queue, an item in full, approve / request changes / reject, reports,
// and curation (featured items, categories; publisher verification is Admin only).
import type { Response } from 'express';
import { catalogErrors } from '../../../shared/catalog/catalog-errors.js';
import { draftDetailReturns } from '../../../shared/catalog/catalog-limits.js';
import { upsertCategory } from '../../../shared/catalog/categories.js';
import { setFeatured } from '../../../shared/catalog/curation.js';
import type { ItemType } from '../../../shared/catalog/item-types.js';
import { listOwnDecisions } from '../../../shared/catalog/moderator-decisions.js';
import { setPublisherVerified } from '../../../shared/catalog/publishers.js';
import { listReports, resolveReport } from '../../../shared/catalog/reports.js';
import { decideReview } from '../../../shared/catalog/review-workflow.js';
import { unlistItem } from '../../../shared/catalog/unlisting.js';
import { getDraftDetail, listReviewQueue } from '../../../shared/catalog/workflow-reads.js';
import { ifMatchOf } from '../../http/if-match.js';
import { checkedParam, pathParam, uuidParam } from '../../http/path-params.js';
import { body, query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';
import { itemIdParam, itemTypeOf, itemTypeParam } from '../catalog-params.js';
import {
  draftDetailHeaders,
  presentDraftDetail,
  presentMutation,
  presentOwnDecision,
  presentPublisher,
  presentQueueEntry,
  presentReport,
} from '../catalog-workflow.presenters.js';
import {
  category,
  draftDetail,
  featured,
  ownDecisionsPage,
  publisher,
  removal,
  reportsPage,
  resolvedReport,
  reviewQueuePage,
  workflowMutation,
} from '../catalog-workflow.responses.js';
import type { Area, Before, Route } from '../route.js';
import { bundleFileRoute } from '../skill-package/bundle-file.route.js';
import {
  approveBody,
  categoryBody,
  categorySlug,
  decisionsQuery,
  featuredBody,
  queueQuery,
  rejectBody,
  removeBody,
  reportsQuery,
  requestChangesBody,
  resolveBody,
  verifiedBody,
} from './moderation.schemas.js';

const moderatorOnly: Before = (ctx, route) => [authenticate(ctx, route), requireRole('Moderator', 'Admin')];
const moderator = { access: 'bearer', dailyQuota: 'counted', before: moderatorOnly } as const;
const item = { ...moderator, params: { type: itemTypeParam, id: itemIdParam } };
const account = (res: Response) => principalOf(res).accountId;

const reviewPrecondition =
  'Review.Stale: the review revision (the ETag of GET /api/v1/moderation/{type}/{id}) is no longer current; the ' +
  'item changed since it was read, and nothing was decided.';

const decisions = [
  { action: 'approve', summary: 'Approve the version under review', schema: approveBody },
  { action: 'request-changes', summary: 'Ask the publisher for changes', schema: requestChangesBody },
  { action: 'reject', summary: 'Reject the version under review', schema: rejectBody },
] as const;

const decisionRoutes = decisions.map(
  ({ action, summary, schema }): Route => ({
    method: 'post',
    path: `/:type/:id/${action}`,
    audited: true,
    summary,
    ...item,
    body: schema,
    response: workflowMutation,
    ifMatch: reviewPrecondition,
    conflicts:
      '<Type>.NotInReview: the item is not in review (withdrawn or already decided).' +
      (action === 'approve' ? " Skill.BundleNotParsed: the skill's bundle is still being parsed." : ''),
    handler: (ctx) => async (req, res) => {
      const type = itemTypeOf(req);
      const input = body(req, schema, 'Moderation.Invalid');
      const note = 'reason' in input ? input.reason : input.comment;
      const decision = action === 'request-changes' ? 'request_changes' : action;
      const id = pathParam(req, 'id');
      const decided = await decideReview(
        ctx,
        type,
        account(res),
        id,
        decision,
        note,
        ifMatchOf(req),
        auditActorOf(req, res),
      );
      res.json(presentMutation(decided));
    },
  }),
);

export const moderationArea: Area = {
  tag: 'Moderation',
  routes: [
    {
      method: 'get',
      path: '/queue',
      summary: 'Items waiting for review',
      ...moderator,
      query: queueQuery,
      response: reviewQueuePage,
      handler: (ctx) => async (req, res) => {
        const q = query(req, queueQuery, 'Moderation.InvalidQuery');
        const page = await listReviewQueue(ctx.db, { ...q, type: q.type as ItemType | undefined });
        res.json({ ...page, items: page.items.map(presentQueueEntry) });
      },
    },
    {
      method: 'get',
      path: '/reports',
      summary: 'Reports',
      ...moderator,
      query: reportsQuery,
      response: reportsPage,
      handler: (ctx) => async (req, res) => {
        const page = await listReports(ctx.db, query(req, reportsQuery, 'Moderation.InvalidQuery'));
        res.json({ ...page, items: page.items.map(presentReport) });
      },
    },
    {
      method: 'get',
      path: '/decisions',
      summary: 'Your own decisions',
      ...moderator,
      query: decisionsQuery,
      returns:
        'The approvals, requests for changes, rejections and removals the caller made, newest first, each with its ' +
        "item and version (paged). Only the caller's own: no other moderator's are listed.",
      response: ownDecisionsPage,
      handler: (ctx) => async (req, res) => {
        const page = await listOwnDecisions(
          ctx.db,
          account(res),
          query(req, decisionsQuery, 'Moderation.InvalidQuery'),
        );
        res.json({ ...page, items: page.items.map(presentOwnDecision) });
      },
    },
    {
      method: 'post',
      path: '/reports/:id/resolve',
      audited: true,
      summary: 'Resolve a report',
      ...moderator,
      params: { id: uuidParam({ notFound: catalogErrors.reportNotFound }) },
      body: resolveBody,
      response: resolvedReport,
      handler: (ctx) => async (req, res) => {
        const { resolution, sameItem } = body(req, resolveBody, 'Moderation.Invalid');
        const audit = auditActorOf(req, res);
        const options = { ...(resolution ? { resolution } : {}), sameItem: sameItem === true, audit };
        const { report, alsoResolved } = await resolveReport(ctx.db, pathParam(req, 'id'), account(res), options);
        res.json({ ...presentReport({ report }), ...(sameItem ? { alsoResolved } : {}) });
      },
    },
    {
      method: 'put',
      path: '/publishers/:slug/verified',
      summary: 'Verify a publisher (Admin)',
      ...moderator,
      before: (ctx, route) => [authenticate(ctx, route), requireRole('Admin')],
      body: verifiedBody,
      response: publisher,
      handler: (ctx) => async (req, res) => {
        const { verified } = body(req, verifiedBody, 'Moderation.Invalid');
        res.json(presentPublisher(await setPublisherVerified(ctx.db, pathParam(req, 'slug'), verified)));
      },
    },
    {
      method: 'put',
      path: '/:type/categories/:slug',
      summary: 'Create or rename a category',
      ...moderator,
      params: { type: itemTypeParam, slug: checkedParam(categorySlug, { invalid: 'Category.Invalid' }) },
      body: categoryBody,
      response: category,
      handler: (ctx) => async (req, res) => {
        const { name } = body(req, categoryBody, 'Category.Invalid');
        res.json({ ...(await upsertCategory(ctx.db, itemTypeOf(req), pathParam(req, 'slug'), name)) });
      },
    },
    bundleFileRoute({ before: moderatorOnly, reader: 'moderator', under: '/skill' }),
    {
      method: 'get',
      path: '/:type/:id',
      summary: 'An item under review',
      ...item,
      etag: 'The review revision (also `reviewRevision`): send it as If-Match on the decision.',
      returns: draftDetailReturns,
      response: draftDetail,
      handler: (ctx) => async (req, res) => {
        const detail = await getDraftDetail(ctx.db, itemTypeOf(req), pathParam(req, 'id'));
        res.set(draftDetailHeaders(detail)).json(presentDraftDetail(detail, ctx.storage));
      },
    },
    {
      method: 'put',
      path: '/:type/:id/featured',
      summary: 'Feature an item',
      ...item,
      body: featuredBody,
      response: featured,
      handler: (ctx) => async (req, res) => {
        const { featured } = body(req, featuredBody, 'Moderation.Invalid');
        res.json(await setFeatured(ctx.db, itemTypeOf(req), pathParam(req, 'id'), featured));
      },
    },
    ...decisionRoutes,
    {
      method: 'post',
      path: '/:type/:id/remove',
      audited: true,
      summary: 'Take a published item out of the public catalog',
      ...item,
      body: removeBody,
      response: removal,
      handler: (ctx) => async (req, res) => {
        const type = itemTypeOf(req);
        const { reason, resolveReports } = body(req, removeBody, 'Moderation.Invalid');
        const audit = auditActorOf(req, res);
        const unlisting = { by: 'moderator' as const, accountId: account(res), reason, audit, resolveReports };
        const { reportsResolved, ...removed } = await unlistItem(ctx, type, pathParam(req, 'id'), unlisting);
        res.json({ ...presentMutation(removed), ...(reportsResolved ? { reportsResolved } : {}) });
      },
    },
  ],
};
