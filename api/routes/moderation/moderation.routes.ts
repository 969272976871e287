// Moderation (Moderator or Admin): the review queue, an item in full, approve / request changes / reject, reports,
// and curation (featured items, categories; publisher verification is Admin only).
import { Router } from 'express';
import { upsertCategory } from '../../../shared/catalog/categories.js';
import { setFeatured } from '../../../shared/catalog/curation.js';
import type { ItemType } from '../../../shared/catalog/item-types.js';
import { setPublisherVerified } from '../../../shared/catalog/publishers.js';
import { listReports, resolveReport } from '../../../shared/catalog/reports.js';
import { decideReview } from '../../../shared/catalog/review-workflow.js';
import { getDraftDetail, listReviewQueue } from '../../../shared/catalog/workflow-reads.js';
import type { AppContext } from '../../../shared/context.js';
import { parseOrThrow } from '../../../shared/errors/validation.js';
import { body, query } from '../../http/validate.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';
import { idParam, itemTypeParam } from '../publisher/publisher.routes.js';
import {
  presentDraftDetail,
  presentMutation,
  presentPublisher,
  presentQueueEntry,
  presentReport,
} from '../publisher/workflow.presenters.js';
import {
  approveBody,
  categoryBody,
  categorySlug,
  featuredBody,
  queueQuery,
  rejectBody,
  reportsQuery,
  requestChangesBody,
  resolveBody,
  verifiedBody,
} from './moderation.schemas.js';

export function moderationRoutes(ctx: AppContext): Router {
  const router = Router();
  const moderator = [authenticate(ctx), requireRole('Moderator', 'Admin')];
  const admin = [authenticate(ctx), requireRole('Admin')];
  const account = (res: Parameters<typeof principalOf>[0]) => principalOf(res).accountId;

  router.get('/queue', ...moderator, async (req, res) => {
    const q = query(req, queueQuery, 'Moderation.InvalidQuery');
    const page = await listReviewQueue(ctx.db, { ...q, type: q.type as ItemType | undefined });
    res.json({ ...page, items: page.items.map(presentQueueEntry) });
  });

  router.get('/reports', ...moderator, async (req, res) => {
    const page = await listReports(ctx.db, query(req, reportsQuery, 'Moderation.InvalidQuery'));
    res.json({ ...page, items: page.items.map(presentReport) });
  });

  router.post('/reports/:id/resolve', ...moderator, async (req, res) => {
    const { resolution } = body(req, resolveBody, 'Moderation.Invalid');
    res.json(presentReport({ report: await resolveReport(ctx.db, idParam(req), account(res), resolution) }));
  });

  router.put('/publishers/:slug/verified', ...admin, async (req, res) => {
    const { verified } = body(req, verifiedBody, 'Moderation.Invalid');
    res.json(presentPublisher(await setPublisherVerified(ctx.db, String(req.params.slug), verified)));
  });

  router.put('/:type/categories/:slug', ...moderator, async (req, res) => {
    const type = itemTypeParam(req);
    const slug = parseOrThrow(categorySlug, req.params.slug, 'Category.Invalid');
    const { name } = body(req, categoryBody, 'Category.Invalid');
    res.json({ ...(await upsertCategory(ctx.db, type, slug, name)) });
  });

  router.get('/:type/:id', ...moderator, async (req, res) => {
    res.json(presentDraftDetail(await getDraftDetail(ctx.db, itemTypeParam(req), idParam(req))));
  });

  router.put('/:type/:id/featured', ...moderator, async (req, res) => {
    const { featured } = body(req, featuredBody, 'Moderation.Invalid');
    res.json(await setFeatured(ctx.db, itemTypeParam(req), idParam(req), featured));
  });

  router.post('/:type/:id/approve', ...moderator, async (req, res) => {
    const type = itemTypeParam(req);
    const { comment } = body(req, approveBody, 'Moderation.Invalid');
    res.json(presentMutation(await decideReview(ctx, type, account(res), idParam(req), 'approve', comment)));
  });

  router.post('/:type/:id/request-changes', ...moderator, async (req, res) => {
    const type = itemTypeParam(req);
    const { comment } = body(req, requestChangesBody, 'Moderation.Invalid');
    res.json(presentMutation(await decideReview(ctx, type, account(res), idParam(req), 'request_changes', comment)));
  });

  router.post('/:type/:id/reject', ...moderator, async (req, res) => {
    const type = itemTypeParam(req);
    const { reason } = body(req, rejectBody, 'Moderation.Invalid');
    res.json(presentMutation(await decideReview(ctx, type, account(res), idParam(req), 'reject', reason)));
  });

  return router;
}
