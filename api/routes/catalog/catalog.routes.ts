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
import { onCatalogChange } from '../../../shared/catalog/change-feed.js';
import { type ItemType, isItemType } from '../../../shared/catalog/item-types.js';
import { rateItem } from '../../../shared/catalog/ratings.js';
import { reportItem } from '../../../shared/catalog/reports.js';
import type { AppContext } from '../../../shared/context.js';
import { notFound } from '../../../shared/errors/app-error.js';
import { publicRead } from '../../http/cacheable.js';
import { withoutNulls } from '../../http/json.js';
import { PublicReadCache } from '../../http/read-cache.js';
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

  const cache = new PublicReadCache(ctx.config.CATALOG_READ_CACHE_MS);
  onCatalogChange(ctx.db, () => cache.clear());

  router.get(
    '/',
    publicRead(cache, async (req) => {
      const page = await listItems(ctx.db, typeOf(req), query(req, listQuery, 'Catalog.InvalidQuery'));
      return { json: { ...page, items: page.items.map(presentSummary) } };
    }),
  );

  router.get(
    '/categories',
    publicRead(cache, async (req) => ({ json: (await listCategories(ctx.db, typeOf(req))).map(presentCategory) })),
  );

  router.get(
    '/:slug',
    publicRead(cache, async (req) => {
      const { item, currentVersion } = await getPublishedItem(ctx.db, typeOf(req), slugOf(req));
      return { json: presentDetail(item, currentVersion) };
    }),
  );

  router.get(
    '/:slug/versions',
    publicRead(cache, async (req) => ({
      json: (await listPublishedVersions(ctx.db, typeOf(req), slugOf(req))).map(presentVersionSummary),
    })),
  );

  router.get(
    '/:slug/versions/:version',
    publicRead(cache, async (req) => {
      const row = await getPublishedVersion(ctx.db, typeOf(req), slugOf(req), String(req.params.version));
      return { json: presentVersionDetail(typeOf(req), row) };
    }),
  );

  router.get(
    '/:slug/prompt.txt',
    publicRead(cache, async (req) => {
      if (typeOf(req) !== 'soul')
        throw notFound('Route.NotFound', `No route for GET ${req.path}; prompt.txt is for souls.`);
      return { text: await soulPrompt(ctx.db, slugOf(req)), contentType: 'text/markdown; charset=utf-8' };
    }),
  );

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
