// Liveness (/health, always 200 text/plain while the process runs) and readiness (/ready, PostgreSQL and Redis).
import { checkReadiness } from '../../../shared/health.js';
import type { Area } from '../route.js';

export const healthArea: Area = {
  tag: 'Operations',
  routes: [
    {
      method: 'get',
      path: '/health',
      summary: 'Liveness: "ok" while the process runs',
      access: 'public',
      content: 'text',
      handler: () => (_req, res) => {
        res.type('text/plain').send('ok');
      },
    },
    {
      method: 'get',
      path: '/ready',
      summary: 'Readiness: PostgreSQL and Redis reachable (503 otherwise)',
      access: 'public',
      handler: (ctx) => async (_req, res) => {
        const { ready, checks } = await checkReadiness(ctx);
        res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
      },
    },
  ],
};
