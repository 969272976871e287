// Who may open the queue dashboard: an Admin's console session, presented as a bearer token, as the HttpOnly cookie
// that POST /admin/session sets (a browser cannot add headers to the dashboard's own calls), or as the console's
// own session cookie (the console links here). A state-changing call carried by either cookie must be same-origin:
// SameSite=Strict still sends a cookie from a sibling subdomain's page (same site, another origin).
import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { forbidden, unauthorized } from '../../../shared/errors/app-error.js';
import { authenticateToken } from '../../../shared/identity/authenticator.js';
import type { Principal } from '../../../shared/identity/principal.js';
import { assertSameOrigin, changesState } from '../../http/same-origin.js';
import { adminCookie, consoleCookie, readSessionCookie } from '../../http/session-cookies.js';

export function bearerToken(req: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1];
}

/** 401 without a valid credential; 403 for an API key (even an Admin's) or an account without the Admin role. */
export async function adminSessionOf(ctx: AppContext, token: string | undefined): Promise<Principal> {
  if (!token) throw unauthorized();
  const { principal } = await authenticateToken(ctx, token, { consumeDailyQuota: false });
  if (principal.via !== 'session')
    throw forbidden('The queue dashboard needs a console session; API keys are refused.');
  if (!principal.roles.includes('Admin')) throw forbidden('The queue dashboard needs the Admin role.');
  return principal;
}

/** Guards the dashboard: its own cookie first, then a bearer header, then the console cookie (either cookie twice in
 * one request: 401, that cookie cleared). */
export function requireAdminSession(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    const dashboardCookie = readSessionCookie(req, res, ctx.config, adminCookie);
    const header = dashboardCookie ? undefined : bearerToken(req);
    const token = dashboardCookie ?? header ?? readSessionCookie(req, res, ctx.config, consoleCookie);
    if (token && !header && changesState(req)) assertSameOrigin(req, ctx.config);
    res.locals.principal = await adminSessionOf(ctx, token);
    next();
  };
}
