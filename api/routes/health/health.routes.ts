// Liveness (/health, always 200 text/plain while the process runs) and readiness (/ready, PostgreSQL and Redis).
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { checkReadiness } from '../../../shared/health.js';

export function healthRoutes(ctx: AppContext): Router {
  const router = Router();
  router.get('/health', (_req, res) => {
    res.type('text/plain').send('ok');
  });
  router.get('/ready', async (_req, res) => {
    const { ready, checks } = await checkReadiness(ctx);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
  });
  return router;
}
