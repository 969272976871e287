// The public catalog of one type under /api/v1/{type} (list, categories, detail, versions, a soul's prompt.txt),
// plus the signed-in report and rating of a published item. Paths whose {type} is not a catalog type fall through
// to the other route areas (and finally to the 404 problem).
import { type Request, Router } from 'express';
import { listItems } from '../../../shared/catalog/catalog-list.js';
import {
  getPublishedItem,
  getPublishedVersion,
  listCategories,
  listPublishedVersions,
  soulPrompt,
} from '../../../shared/catalog/catalog-reads.js';
import { type ItemType, isItemType } from '../../../shared/catalog/item-types.js';
import { rateItem } from '../../../shared/catalog/ratings.js';
import { reportItem } from '../../../shared/catalog/reports.js';
import type { AppContext } from '../../../shared/context.js';
import { sendCacheable, sendCacheableJson } from '../../http/cacheable.js';
import { withoutNulls } from '../../http/json.js';
import { body, query } from '../../http/validate.js';
import { authenticate, principalOf } from '../../middleware/auth.js';
import {
  presentCategory,
  presentDetail,
  presentSummary,
  presentVersionDetail,
  presentVersionSummary,
  roundRating,
} from './catalog.presenters.js';
import { listQuery, ratingBody, reportBody } from './catalog.schemas.js';

const typeOf = (req: Request) => req.params.type as ItemType;
const slugOf = (req: Request) => String(req.params.slug);

export function catalogRoutes(ctx: AppContext): Router {
  const router = Router({ mergeParams: true });

  router.use((req, _res, next) => {
    const { type } = req.params as { type?: string };
    next(isItemType(type) ? undefined : 'router');
  });

  router.get('/', async (req, res) => {
    const q = query(req, listQuery, 'Catalog.InvalidQuery');
    const page = await listItems(ctx.db, typeOf(req), q);
    sendCacheableJson(req, res, { ...page, items: page.items.map(presentSummary) });
  });

  router.get('/categories', async (req, res) => {
    const rows = await listCategories(ctx.db, typeOf(req));
    sendCacheableJson(req, res, rows.map(presentCategory));
  });

  router.get('/:slug', async (req, res) => {
    const { item, currentVersion } = await getPublishedItem(ctx.db, typeOf(req), slugOf(req));
    sendCacheableJson(req, res, presentDetail(item, currentVersion));
  });

  router.get('/:slug/versions', async (req, res) => {
    const rows = await listPublishedVersions(ctx.db, typeOf(req), slugOf(req));
    sendCacheableJson(req, res, rows.map(presentVersionSummary));
  });

  router.get('/:slug/versions/:version', async (req, res) => {
    const type = typeOf(req);
    const row = await getPublishedVersion(ctx.db, type, slugOf(req), String(req.params.version));
    sendCacheableJson(req, res, presentVersionDetail(type, row));
  });

  router.get('/:slug/prompt.txt', async (req, res, next) => {
    if (typeOf(req) !== 'soul') return next();
    sendCacheable(req, res, await soulPrompt(ctx.db, slugOf(req)), 'text/markdown; charset=utf-8');
  });

  router.post('/:slug/report', authenticate(ctx), async (req, res) => {
    const input = body(req, reportBody, 'Report.Invalid');
    const report = await reportItem(ctx, typeOf(req), slugOf(req), principalOf(res).accountId, input);
    res.json(report);
  });

  router.put('/:slug/rating', authenticate(ctx), async (req, res) => {
    const { score } = body(req, ratingBody, 'Rating.Invalid');
    const rated = await rateItem(ctx, typeOf(req), slugOf(req), principalOf(res).accountId, score);
    res.json(withoutNulls({ ...rated, ratingAverage: roundRating(rated.ratingAverage) }));
  });

  return router;
}
