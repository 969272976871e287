// Authentication shared by the catalog and organization families: `Authorization: Bearer` with an `ock_` API key
// or an `ocs_` console session (and `x-api-key` where a route allows it), else the console's HttpOnly session
// cookie (refused when the request carries two of it), whose state-changing requests must come from this origin
// (CSRF). Whether the request counts the account's daily quota is the route's declared `dailyQuota`
// (api/routes/route.ts).
import type { Request, RequestHandler, Response } from 'express';
import type { Config } from '../../shared/config/index.js';
import type { AppContext } from '../../shared/context.js';
import { forbidden, unauthorized } from '../../shared/errors/app-error.js';
import { authenticateToken } from '../../shared/identity/authenticator.js';
import type { Principal, Role } from '../../shared/identity/principal.js';
import { tokenKind } from '../../shared/identity/tokens.js';
import { assertSameOrigin, changesState } from '../http/same-origin.js';
import { consoleCookie, cookieName, cookieValues, readSessionCookie } from '../http/session-cookies.js';
import type { Before, DailyQuota } from '../routes/route.js';

type Presented = { token: string | undefined; fromCookie: boolean };

const bearerOf = (header: string) => /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];

function presentedToken(req: Request, res: Response, config: Config, allowXApiKey: boolean): Presented {
  const header = req.header('authorization');
  if (header) return { token: bearerOf(header), fromCookie: false };
  const apiKey = allowXApiKey ? req.header('x-api-key')?.trim() : undefined;
  if (apiKey) return { token: apiKey, fromCookie: false };
  return { token: readSessionCookie(req, res, config, consoleCookie), fromCookie: true };
}

/** Whether the request carries any credential `authenticate` would read (routes open to both kinds of caller); two
 * session cookies count, so that `authenticate` refuses them. */
export function hasCredential(req: Request, config: Config): boolean {
  const header = req.header('authorization');
  if (header) return bearerOf(header) !== undefined;
  return cookieValues(req, cookieName(req, config, consoleCookie)).length > 0;
}

/** Whether `authenticate` accepted the console cookie for this request (rather than a header). */
export const authenticatedByCookie = (res: Response) => res.locals.viaCookie === true;

export type AuthenticateOptions = { dailyQuota?: DailyQuota; allowXApiKey?: boolean };

export function authenticate(ctx: AppContext, options: AuthenticateOptions = {}): RequestHandler {
  return async (req, res, next) => {
    const dailyQuota = options.dailyQuota ?? 'none';
    const quotaShown = dailyQuota !== 'none';
    const { token, fromCookie } = presentedToken(req, res, ctx.config, options.allowXApiKey ?? false);
    if (!token) throw unauthorized();
    if (fromCookie) {
      // The cookie only ever holds a console session; anything else in it was not set by us.
      if (tokenKind(token) !== 'session') throw unauthorized();
      if (changesState(req)) assertSameOrigin(req, ctx.config);
      res.locals.viaCookie = true;
    }
    const consumeDailyQuota = dailyQuota === 'counted' && tokenKind(token) === 'api-key';
    const { principal, quota } = await authenticateToken(ctx, token, { consumeDailyQuota, quotaShown });
    if (quotaShown) {
      res.setHeader('x-ratelimit-limit', String(quota.limit));
      res.setHeader('x-ratelimit-remaining', String(quota.remaining));
    }
    res.locals.principal = principal;
    next();
  };
}

/** The `before` of a route any signed-in caller may use: authentication with the route's daily quota. */
export const signedIn: Before = (ctx, route) => [authenticate(ctx, route)];

/** Lets the request through when the account holds any of the roles; 403 Auth.Forbidden otherwise. */
export function requireRole(...required: Role[]): RequestHandler {
  return (_req, res, next) => {
    const principal = principalOf(res);
    if (!required.some((r) => principal.roles.includes(r))) {
      throw forbidden(`This needs the ${required.join(' or ')} role.`);
    }
    next();
  };
}

export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw unauthorized();
  return principal;
}
