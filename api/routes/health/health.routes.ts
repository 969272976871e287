// Liveness (/health, always 200 text/plain while the process runs) and readiness (/ready, PostgreSQL and Redis; 503
// once the process is stopping, so a load balancer takes it out: api/http/drain.ts).
import { checkReadiness } from '../../../shared/health.js';
import { isDraining } from '../../http/drain.js';
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
      summary: 'Readiness: PostgreSQL and Redis reachable and the process not stopping (503 otherwise)',
      access: 'public',
      handler: (ctx) => async (_req, res) => {
        if (isDraining()) {
          res.status(503).json({ status: 'stopping' });
          return;
        }
        const { ready, checks } = await checkReadiness(ctx);
        res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'unavailable', checks });
      },
    },
  ],
};
