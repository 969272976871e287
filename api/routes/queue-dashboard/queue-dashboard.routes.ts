// The bull-board queue dashboard at /admin/queues (every queue of the registry) for Admin console sessions,
// and /admin/session to turn a console session token into the dashboard's HttpOnly, SameSite=Strict cookie.
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { queueNames } from '../../../shared/queues/registry.js';
import { ADMIN_COOKIE, ADMIN_COOKIE_PATH, adminSessionOf, bearerToken, requireAdminSession } from './admin-session.js';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

export function queueDashboardRoutes(ctx: AppContext): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: queueNames.map((name) => new BullMQAdapter(ctx.queues.queue(name))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'ockhub queues' } },
  });
  const secureCookie = ctx.config.PUBLIC_BASE_URL?.startsWith('https:') ?? false;
  const router = Router();

  router.post('/admin/session', async (req, res) => {
    const token = bearerToken(req);
    await adminSessionOf(ctx, token);
    res.cookie(ADMIN_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: secureCookie || req.secure,
      path: ADMIN_COOKIE_PATH,
    });
    res.status(204).end();
  });
  router.delete('/admin/session', (_req, res) => {
    res.clearCookie(ADMIN_COOKIE, { path: ADMIN_COOKIE_PATH, httpOnly: true, sameSite: 'strict' });
    res.status(204).end();
  });
  router.use(QUEUE_DASHBOARD_PATH, requireAdminSession(ctx), serverAdapter.getRouter());
  return router;
}
