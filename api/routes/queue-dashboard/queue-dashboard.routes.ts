// The bull-board queue dashboard at /admin/queues (every queue of the registry) for Admin console sessions,
// and /admin/session to turn a console session token into the dashboard's HttpOnly, SameSite=Strict cookie.
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Express } from 'express';
import { queueNames } from '../../../shared/queues/registry.js';
import { adminCookie, clearSessionCookie, setSessionCookie } from '../../http/session-cookies.js';
import type { Area } from '../route.js';
import { adminSessionOf, bearerToken, requireAdminSession } from './admin-session.js';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

export const queueDashboardArea: Area = {
  tag: 'Operations',
  // The bull-board UI and its own API: a sub-application, not part of the document.
  middleware: (router, ctx) => {
    const serverAdapter = new ExpressAdapter();
    serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
    createBullBoard({
      queues: queueNames.map((name) => new BullMQAdapter(ctx.queues.queue(name))),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'ockhub queues' } },
    });
    // bull-board runs its own Express app, which would announce itself again after the security headers removed it.
    const dashboard: Express = serverAdapter.getRouter();
    dashboard.disable('x-powered-by');
    router.use(QUEUE_DASHBOARD_PATH, requireAdminSession(ctx), dashboard);
  },
  routes: [
    {
      method: 'post',
      path: '/admin/session',
      summary: 'Set the queue dashboard cookie from an Admin console session (API keys refused)',
      access: 'session',
      // The console session is checked by the dashboard's own rule (adminSessionOf), which never counts.
      dailyQuota: 'none',
      status: 204,
      content: 'none',
      returns:
        'The HttpOnly, SameSite=Strict cookie `__Secure-ockhub_admin_session` (`ockhub_admin_session` over plain ' +
        'http) is set for /admin.',
      handler: (ctx) => async (req, res) => {
        const token = bearerToken(req);
        await adminSessionOf(ctx, token);
        setSessionCookie(req, res, ctx.config, { ...adminCookie, token: token as string });
        res.status(204).end();
      },
    },
    {
      method: 'delete',
      path: '/admin/session',
      summary: 'Clear the queue dashboard cookie',
      access: 'public',
      status: 204,
      content: 'none',
      handler: (ctx) => (req, res) => {
        clearSessionCookie(req, res, ctx.config, adminCookie);
        res.status(204).end();
      },
    },
  ],
};
