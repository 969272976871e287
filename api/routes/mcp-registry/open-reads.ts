// CORS for the registry's reads: any origin may GET them (no credentials are involved), and a browser's preflight
// for a GET is answered here. Publishing is not opened to other origins.
import type { RequestHandler } from 'express';

const readMethods = new Set(['GET', 'HEAD']);

export const openReads: RequestHandler = (req, res, next) => {
  const preflight = req.method === 'OPTIONS' && req.header('access-control-request-method') !== undefined;
  if (!readMethods.has(req.method) && !preflight) return next();
  if (preflight && !readMethods.has(String(req.header('access-control-request-method')).toUpperCase())) {
    res.status(204).end();
    return;
  }
  res.setHeader('Access-Control-Allow-Origin', '*');
  // Answers are public data: let pages of other origins embed or read them (helmet's default is same-origin).
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (!preflight) {
    res.setHeader('Access-Control-Expose-Headers', 'ETag, Retry-After, X-Correlation-Id');
    return next();
  }
  res.setHeader('Access-Control-Allow-Methods', 'GET, HEAD, OPTIONS');
  const headers = req.header('access-control-request-headers');
  if (headers) res.setHeader('Access-Control-Allow-Headers', headers);
  res.setHeader('Access-Control-Max-Age', '86400');
  res.setHeader('Vary', 'Access-Control-Request-Headers');
  res.status(204).end();
};
