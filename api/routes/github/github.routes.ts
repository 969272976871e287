// GET /api/v1/github/stars: the cached star count, answered at once; a stale or missing count asks for a refresh.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { readStarCount, requestStarRefresh } from '../../../shared/github/star-count.js';
import { withoutNulls } from '../../http/json.js';

export function githubRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/stars', async (_req, res) => {
    const { count, stale } = await readStarCount(ctx);
    if (stale) await requestStarRefresh(ctx);
    res.setHeader('cache-control', 'public, max-age=60');
    res.json(withoutNulls({ ...count, stale }));
  });
  return router;
}
