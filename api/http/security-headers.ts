// Security headers on every answer of every route family, from helmet, with the Content-Security-Policy chosen by
// path: API answers are data and may load nothing; the pages served here (Swagger UI, the queue dashboard) get what
// their own static files need and no more. A new page adds one entry to `pagePolicies`; the console (served at many
// page paths) sets its own policy on its answers, after this one (api/routes/console/console-policy.ts).
import type { Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

export type CspDirectives = Record<string, string[]>;

export type PathPolicy = {
  /** The path itself and everything under it. */
  prefix: string;
  directives: CspDirectives;
  /** Who may embed the answers with no-cors requests (`<img>`, `<video>`); same-origin unless said here. */
  crossOriginResourcePolicy?: 'same-origin' | 'same-site' | 'cross-origin';
};

/** JSON, text and event streams: nothing in them may load, frame, or submit anything. */
export const dataOnlyDirectives: CspDirectives = {
  'default-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/** A page made of this origin's own files: no inline or third-party script, no plugins, no framing. */
export const ownPageDirectives: CspDirectives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** First match wins. */
export const pagePolicies: PathPolicy[] = [
  // Swagger UI (swagger-ui-dist) with its start script /docs/start.js: loaded in Chromium under this policy with no
  // violation, "Try it out" included.
  { prefix: '/docs', directives: ownPageDirectives },
  // bull-board: its page carries an inline <style> and style attributes (inline styles only: scripts stay 'self'), and
  // asks for a Google web font that this policy leaves out (the dashboard falls back to a system font, and the
  // Admin's browser calls no third party).
  { prefix: '/admin/queues', directives: { ...ownPageDirectives, 'style-src': ["'self'", "'unsafe-inline'"] } },
  // Stored objects (videos, bundles): a video opened directly still plays (its media document needs the same
  // origin, hence allow-same-origin), and no stored file can run script or submit forms.
  {
    prefix: '/files',
    directives: {
      ...dataOnlyDirectives,
      'img-src': ["'self'"],
      'media-src': ["'self'"],
      sandbox: ['allow-same-origin'],
    },
    crossOriginResourcePolicy: 'cross-origin',
  },
];

function helmetFor(policy: Omit<PathPolicy, 'prefix'>): RequestHandler {
  const options: HelmetOptions = {
    contentSecurityPolicy: { useDefaults: false, directives: policy.directives },
    crossOriginResourcePolicy: { policy: policy.crossOriginResourcePolicy ?? 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    xFrameOptions: { action: 'deny' },
  };
  return helmet(options);
}

/**
 * The headers helmet sets for a policy, computed once: they depend on nothing in the request, and setting a fixed
 * list costs a fraction of running helmet's dozen middlewares on every answer (seen in the gateway's CPU profile).
 */
function headersOf(policy: Omit<PathPolicy, 'prefix'>): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  let done = false;
  helmetFor(policy)({} as Request, recorder as unknown as Response, () => {
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously: its headers cannot be computed once');
  return headers;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The security headers of an answer to `path`: those of the first policy whose prefix holds it, else data-only. */
export function securityHeadersByPath(policies: PathPolicy[] = pagePolicies): (path: string) => [string, string][] {
  const fallback = headersOf({ directives: dataOnlyDirectives });
  const chosen = policies.map((p) => ({ prefix: p.prefix, headers: headersOf(p) }));
  return (path) => chosen.find((c) => under(path, c.prefix))?.headers ?? fallback;
}

export function securityHeaders(policies: PathPolicy[] = pagePolicies): RequestHandler {
  const headersFor = securityHeadersByPath(policies);
  return (req, res, next) => {
    for (const [name, value] of headersFor(req.path)) res.setHeader(name, value);
    next();
  };
}
