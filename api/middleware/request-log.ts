// One structured log line per request: 5xx at error level, everything else at info.
import type { RequestHandler } from 'express';
import type { Logger } from '../../shared/logging/logger.js';

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Read now: when the answer finishes inside a mounted router, req.url is still cut to the router's part.
    const path = req.path;
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const line = { method: req.method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 };
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request');
    });
    next();
  };
}
