// The public catalog of one type under /api/v1/{type} (list, categories, detail, versions, a soul's prompt.txt),
// plus the signed-in report and rating of a published item (and reading one's own rating back). Paths whose {type}
// is not a catalog type fall through to the other route areas (and finally to the 404 problem).
import type { Request } from 'express';
import { z } from 'zod';
import { listItems } from '../../../shared/catalog/catalog-list.js';
import {
  getPublishedItem,
  getPublishedVersion,
  listCategories,
  listPublishedVersions,
  soulPrompt,
} from '../../../shared/catalog/catalog-reads.js';
import { isItemType, itemTypes } from '../../../shared/catalog/item-types.js';
import { ownRating, rateItem } from '../../../shared/catalog/ratings.js';
import { reportItem } from '../../../shared/catalog/reports.js';
import { notFound } from '../../../shared/errors/app-error.js';
import { withoutNulls } from '../../http/json.js';
import { pathParam } from '../../http/path-params.js';
import { body, query } from '../../http/validate.js';
import { principalOf, signedIn } from '../../middleware/auth.js';
import { itemTypeOf } from '../catalog-params.js';
import { publicReadRoute } from '../public-read-route.js';
import type { Area } from '../route.js';
import {
  presentCategory,
  presentDetail,
  presentSummary,
  presentVersionDetail,
  presentVersionSummary,
  roundRating,
} from './catalog.presenters.js';
import {
  catalogCategories,
  catalogItemDetail,
  catalogOwnRating,
  catalogPage,
  catalogRating,
  catalogReport,
  catalogVersionDetail,
  catalogVersionSummary,
} from './catalog.responses.js';
import { listQuery, ratingBody, reportBody } from './catalog.schemas.js';

const slugOf = (req: Request) => pathParam(req, 'slug');

export const catalogArea: Area = {
  tag: 'Catalog',
  prefixParams: { type: z.enum(itemTypes) },
  // The {type} of the prefix is not a route parameter: a path whose {type} is no catalog type is not this area's.
  middleware: (router) => {
    router.use((req, _res, next) => {
      const { type } = req.params as { type?: string };
      next(isItemType(type) ? undefined : 'router');
    });
  },
  routes: [
    publicReadRoute(
      'catalog',
      {
        path: '/',
        summary: 'List published items (search, filters, sort, paging)',
        query: listQuery,
        response: catalogPage,
      },
      async (ctx, req) => {
        const page = await listItems(ctx.db, itemTypeOf(req), query(req, listQuery, 'Catalog.InvalidQuery'));
        return { json: { ...page, items: page.items.map(presentSummary) } };
      },
    ),
    publicReadRoute(
      'catalog',
      { path: '/categories', summary: 'Categories of the type', response: catalogCategories },
      async (ctx, req) => ({
        json: (await listCategories(ctx.db, itemTypeOf(req))).map(presentCategory),
      }),
    ),
    publicReadRoute(
      'catalog',
      { path: '/:slug', summary: 'An item with its latest version', response: catalogItemDetail },
      async (ctx, req) => {
        const { item, currentVersion } = await getPublishedItem(ctx.db, itemTypeOf(req), slugOf(req));
        return { json: presentDetail(item, currentVersion, ctx.storage) };
      },
    ),
    publicReadRoute(
      'catalog',
      { path: '/:slug/versions', summary: 'Published versions of an item', response: z.array(catalogVersionSummary) },
      async (ctx, req) => ({
        json: (await listPublishedVersions(ctx.db, itemTypeOf(req), slugOf(req))).map(presentVersionSummary),
      }),
    ),
    publicReadRoute(
      'catalog',
      { path: '/:slug/versions/:version', summary: 'One version of an item', response: catalogVersionDetail },
      async (ctx, req) => {
        const row = await getPublishedVersion(ctx.db, itemTypeOf(req), slugOf(req), pathParam(req, 'version'));
        return { json: presentVersionDetail(itemTypeOf(req), row, ctx.storage) };
      },
    ),
    publicReadRoute(
      'catalog',
      {
        path: '/:slug/prompt.txt',
        summary: 'The prompt of a soul as text (souls only)',
        content: 'markdown',
        returns: '`# {name}\\n\\n{summary}\\n\\n{SOUL.md of the published version, else the description}\\n`.',
      },
      async (ctx, req) => {
        if (itemTypeOf(req) !== 'soul')
          throw notFound('Route.NotFound', `No route for GET ${req.baseUrl}${req.path}; prompt.txt is for souls.`);
        return { text: await soulPrompt(ctx.db, slugOf(req)), contentType: 'text/markdown; charset=utf-8' };
      },
    ),
    {
      method: 'post',
      path: '/:slug/report',
      summary: 'Report an item',
      access: 'bearer',
      dailyQuota: 'counted',
      before: signedIn,
      body: reportBody,
      response: catalogReport,
      handler: (ctx) => async (req, res) => {
        const input = body(req, reportBody, 'Report.Invalid');
        const report = await reportItem(ctx, itemTypeOf(req), slugOf(req), principalOf(res).accountId, input);
        res.json(report);
      },
    },
    {
      method: 'get',
      path: '/:slug/rating',
      summary: "The caller's own rating of an item",
      access: 'bearer',
      dailyQuota: 'counted',
      before: signedIn,
      notFound: 'Rating.NotFound: the account has not rated the item.',
      response: catalogOwnRating,
      handler: (ctx) => async (req, res) => {
        res.json(await ownRating(ctx.db, itemTypeOf(req), slugOf(req), principalOf(res).accountId));
      },
    },
    {
      method: 'put',
      path: '/:slug/rating',
      summary: 'Rate an item (1-5)',
      access: 'bearer',
      dailyQuota: 'counted',
      before: signedIn,
      body: ratingBody,
      response: catalogRating,
      handler: (ctx) => async (req, res) => {
        const { score } = body(req, ratingBody, 'Rating.Invalid');
        const rated = await rateItem(ctx, itemTypeOf(req), slugOf(req), principalOf(res).accountId, score);
        res.json(withoutNulls({ ...rated, ratingAverage: roundRating(rated.ratingAverage) }));
      },
    },
  ],
};
