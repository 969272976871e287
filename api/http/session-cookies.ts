// The HttpOnly cookies that carry a console session to the browser: the console's own (`ockhub_session`, every path)
// and the queue dashboard's (`ockhub_admin_session`, /admin only). A page script can read neither.
import type { Request, Response } from 'express';
import type { Config } from '../../shared/config/index.js';

export const CONSOLE_COOKIE = 'ockhub_session';
export const ADMIN_COOKIE = 'ockhub_admin_session';
export const ADMIN_COOKIE_PATH = '/admin';

/** The value of one cookie of the request (the first of that name), URL-decoded. */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.header('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** Secure whenever the service is reached over https (directly, or behind a proxy under TRUST_PROXY). */
const secureFor = (req: Request, config: Pick<Config, 'publicBaseUrl'>) =>
  config.publicBaseUrl.startsWith('https:') || req.secure;

export function setSessionCookie(
  req: Request,
  res: Response,
  config: Pick<Config, 'publicBaseUrl'>,
  cookie: { name: string; path: string; token: string; expiresAt?: Date },
): void {
  res.cookie(cookie.name, cookie.token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secureFor(req, config),
    path: cookie.path,
    ...(cookie.expiresAt ? { expires: cookie.expiresAt } : {}),
  });
}

export function clearSessionCookie(res: Response, cookie: { name: string; path: string }): void {
  res.clearCookie(cookie.name, { path: cookie.path, httpOnly: true, sameSite: 'strict' });
}
