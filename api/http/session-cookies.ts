// The HttpOnly cookies that carry a console session to the browser: the console's own (every path) and the queue
// dashboard's (/admin only). A page script can read neither. Over https their names carry the browser's cookie
// prefixes — `__Host-ockhub_session` (Secure, Path=/, no Domain) and `__Secure-ockhub_admin_session` (Secure) —
// which no sibling subdomain can set (cookie tossing); over plain http (local development) they keep the bare names.
// A request carrying two cookies of the name is refused and the cookie cleared, never one of them picked.
import type { Request, Response } from 'express';
import type { Config } from '../../shared/config/index.js';
import { unauthorized } from '../../shared/errors/app-error.js';

export type SessionCookie = { name: string; securePrefix: '__Host-' | '__Secure-'; path: string };

export const consoleCookie: SessionCookie = { name: 'ockhub_session', securePrefix: '__Host-', path: '/' };
export const adminCookie: SessionCookie = { name: 'ockhub_admin_session', securePrefix: '__Secure-', path: '/admin' };

type CookieConfig = Pick<Config, 'publicBaseUrl'>;

/** Secure whenever the service is reached over https (directly, or behind a proxy under TRUST_PROXY). */
const secureFor = (req: Request, config: CookieConfig) => config.publicBaseUrl.startsWith('https:') || req.secure;

/** The name the cookie has on this request: with its prefix over https, bare over plain http. */
export const cookieName = (req: Request, config: CookieConfig, cookie: SessionCookie): string =>
  secureFor(req, config) ? `${cookie.securePrefix}${cookie.name}` : cookie.name;

/** Every value the request carries under that cookie name, in the browser's order (an undecodable one as ''). */
export function cookieValues(req: Request, name: string): string[] {
  const values: string[] = [];
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      values.push(decodeURIComponent(value.join('=')));
    } catch {
      values.push('');
    }
  }
  return values;
}

/**
 * The session token in the request's cookie, or undefined without one. Two or more cookies of the name (one tossed
 * in from a sibling subdomain with a longer Path, which the browser sends first): 401 in the route family's shape,
 * and the cookie cleared, rather than acting as whichever account came first.
 */
export function readSessionCookie(
  req: Request,
  res: Response,
  config: CookieConfig,
  cookie: SessionCookie,
): string | undefined {
  const values = cookieValues(req, cookieName(req, config, cookie));
  if (values.length > 1) {
    clearSessionCookie(req, res, config, cookie);
    throw unauthorized('The request carries more than one session cookie; they were cleared: sign in again.');
  }
  return values[0];
}

export function setSessionCookie(
  req: Request,
  res: Response,
  config: CookieConfig,
  cookie: SessionCookie & { token: string; expiresAt?: Date },
): void {
  res.cookie(cookieName(req, config, cookie), cookie.token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secureFor(req, config),
    path: cookie.path,
    ...(cookie.expiresAt ? { expires: cookie.expiresAt } : {}),
  });
}

/** Clears the cookie as it was set: the same name, Path and Secure (a browser ignores a prefixed clear without them). */
export function clearSessionCookie(req: Request, res: Response, config: CookieConfig, cookie: SessionCookie): void {
  res.clearCookie(cookieName(req, config, cookie), {
    path: cookie.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: secureFor(req, config),
  });
}
