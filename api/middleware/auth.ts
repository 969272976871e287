// Authentication shared by every route family: `Authorization: Bearer` with an `ock_` API key or an `ocs_`
// console session (and `x-api-key` where a route allows it). Catalog API-key requests count the daily quota.
import type { Request, RequestHandler, Response } from 'express';
import type { AppContext } from '../../shared/context.js';
import { forbidden, unauthorized } from '../../shared/errors/app-error.js';
import { authenticateToken } from '../../shared/identity/authenticator.js';
import type { Principal, Role } from '../../shared/identity/principal.js';
import { tokenKind } from '../../shared/identity/tokens.js';
import { routeFamilyOf } from '../http/route-family.js';

function presentedToken(req: Request, allowXApiKey: boolean): string | undefined {
  const header = req.header('authorization');
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }
  return allowXApiKey ? req.header('x-api-key')?.trim() : undefined;
}

export function authenticate(ctx: AppContext, options: { allowXApiKey?: boolean } = {}): RequestHandler {
  return async (req, res, next) => {
    const token = presentedToken(req, options.allowXApiKey ?? false);
    if (!token) throw unauthorized();
    const family = routeFamilyOf(req.originalUrl.split('?')[0] ?? '');
    const consumeDailyQuota = family === 'catalog' && tokenKind(token) === 'api-key';
    const { principal, quota } = await authenticateToken(ctx, token, { consumeDailyQuota });
    if (family === 'catalog' || family === 'organization') {
      res.setHeader('x-ratelimit-limit', String(quota.limit));
      res.setHeader('x-ratelimit-remaining', String(quota.remaining));
    }
    res.locals.principal = principal;
    next();
  };
}

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
