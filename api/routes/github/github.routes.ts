// GET /api/v1/github/stars: the cached star count, answered at once; a stale or missing count asks for a refresh.
import { readStarCount, requestStarRefresh } from '../../../shared/github/star-count.js';
import type { Area } from '../route.js';
import { starCount } from './github.responses.js';

export const githubArea: Area = {
  tag: 'Catalog',
  routes: [
    {
      method: 'get',
      path: '/stars',
      summary: 'Star count of the project repository',
      access: 'public',
      response: starCount,
      handler: (ctx) => async (_req, res) => {
        const { count, stale } = await readStarCount(ctx);
        if (stale) await requestStarRefresh(ctx);
        res.setHeader('cache-control', 'public, max-age=60');
        // SPEC section 2: the keys are always present, `null` until the first fetch.
        res.json({ stars: count.stars ?? null, repo: count.repo, fetchedAt: count.fetchedAt ?? null, stale });
      },
    },
  ],
};
