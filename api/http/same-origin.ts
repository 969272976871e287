// CSRF protection for cookie-authenticated requests: a state-changing request must come from a page of this very
// origin, as the browser itself states it (Fetch Metadata `Sec-Fetch-Site`, else `Origin`). Both are headers a page
// cannot set; a request carrying neither (no browser sends such a POST) is refused too. See docs/console.md.
import type { Request } from 'express';
import type { Config } from '../../shared/config/index.js';
import { forbidden } from '../../shared/errors/app-error.js';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export const changesState = (req: Request) => !safeMethods.has(req.method.toUpperCase());

/** The origins this service answers as: the configured public one and the one this request was addressed to. */
function ownOrigins(req: Request, config: Pick<Config, 'publicBaseUrl'>): Set<string> {
  const origins = new Set([new URL(config.publicBaseUrl).origin]);
  const host = req.get('host');
  if (host) origins.add(`${req.protocol}://${host}`);
  return origins;
}

export function isSameOrigin(req: Request, config: Pick<Config, 'publicBaseUrl'>): boolean {
  const site = req.header('sec-fetch-site');
  if (site) return site === 'same-origin';
  const origin = req.header('origin');
  return origin !== undefined && ownOrigins(req, config).has(origin);
}

export function assertSameOrigin(req: Request, config: Pick<Config, 'publicBaseUrl'>): void {
  if (!isSameOrigin(req, config)) {
    throw forbidden(
      'A request that changes something with the console cookie must come from a console page of this origin.',
      'Auth.CrossSiteRequest',
    );
  }
}
