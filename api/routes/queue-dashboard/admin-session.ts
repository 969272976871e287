// Who may open the queue dashboard: an Admin's console session, presented as a bearer token or as the
// HttpOnly cookie that POST /admin/session sets (a browser cannot add headers to the dashboard's own calls).
import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { forbidden, unauthorized } from '../../../shared/errors/app-error.js';
import { authenticateToken } from '../../../shared/identity/authenticator.js';
import type { Principal } from '../../../shared/identity/principal.js';

export const ADMIN_COOKIE = 'ockhub_admin_session';
export const ADMIN_COOKIE_PATH = '/admin';

export function bearerToken(req: Request): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1];
}

export function cookieToken(req: Request): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === ADMIN_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
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

/** Guards the dashboard: the cookie first, a bearer header otherwise. */
export function requireAdminSession(ctx: AppContext): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await adminSessionOf(ctx, cookieToken(req) ?? bearerToken(req));
    next();
  };
}
