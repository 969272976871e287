// One structured log line per request: 5xx at error level, everything else at info.
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from '../../shared/logging/logger.js';

/** The most of a path a log line carries: the caller chooses it, up to Node's 16 KiB header limit. */
export const LOGGED_PATH_CHARS = 1_024;

// Paths that carry a secret: an invite token (the API's preview and accept routes, the console's join page) joins an
// organization, perhaps as Admin, so it must not reach a log (the database keeps only its keyed hash). Any letter
// case, as the router matches any (security review #111).
const SECRET_IN_PATH = /^(\/api\/organization\/invites\/|\/join\/)[^/]+/i;

/**
 * The path as a log line records it: a secret segment replaced by `[redacted]`, then its first LOGGED_PATH_CHARS
 * characters, and its length when it was cut.
 */
export function loggedPath(rawPath: string): { path: string; pathLength?: number } {
  const path = rawPath.replace(SECRET_IN_PATH, '$1[redacted]');
  if (path.length <= LOGGED_PATH_CHARS) return { path };
  return { path: path.slice(0, LOGGED_PATH_CHARS), pathLength: path.length };
}

/** Writes the request's line when its answer has been sent. */
export function logWhenAnswered(logger: Logger, method: string | undefined, path: string, res: ServerResponse): void {
  const started = process.hrtime.bigint();
  const logged = loggedPath(path);
  res.on('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const line = { method, ...logged, status: res.statusCode, ms: Math.round(ms * 10) / 10 };
    if (res.statusCode >= 500) logger.error(line, 'request failed');
    else logger.info(line, 'request');
  });
}

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    // Read now: when the answer finishes inside a mounted router, req.url is still cut to the router's part.
    logWhenAnswered(logger, req.method, req.path, res);
    next();
  };
}
