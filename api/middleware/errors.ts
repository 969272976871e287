// Maps anything thrown by a route to an AppError and renders it in the shape of the route's family.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { AppError, invalidJson, isAppError, notFound, serviceUnavailable } from '../../shared/errors/app-error.js';
import { validationError } from '../../shared/errors/validation.js';
import type { Logger } from '../../shared/logging/logger.js';
import { baseUrlHint } from '../http/base-url-hint.js';
import { renderError } from '../http/error-renderers.js';
import { routeFamilyOfRequest } from '../http/route-family.js';
import { loggedPath } from './request-log.js';

type BodyParserError = Error & { type?: string; status?: number };

const unavailableMessages = [
  /Connection is closed/,
  /enableOfflineQueue/,
  /MaxRetriesPerRequest/i,
  /Command timed out/,
  // node-postgres, when the server goes away without an error code, or the pool cannot connect in time.
  /Connection terminated/,
  /connection error and is not queryable/,
  /timeout exceeded when trying to connect/,
];
/**
 * Socket errors, and the SQLSTATEs of a PostgreSQL that cannot serve us now: 57P01–57P05 (operator intervention: an
 * admin shutdown, a crash, "cannot connect now" while starting, the database dropped, an idle session ended), 53300
 * (too many connections), 3D000 (the database does not exist: dropped, or not yet restored), every code of class
 * 08 (connection exception: 08000, 08001, 08003, 08004, 08006, 08007, 08P01) and of class 28 (the login refused: 28000
 * a role renamed or made NOLOGIN, 28P01 a password rotated on the server first), which `isUnavailable` checks by
 * prefix. Each is logged with its code; the client is told to come back, not that the request was wrong.
 */
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '57P04',
  '57P05',
  '53300',
  '3D000',
]);
const isUnavailableCode = (code: string) =>
  unavailableCodes.has(code) || (code.length === 5 && (code.startsWith('08') || code.startsWith('28')));

/** A lost PostgreSQL or Redis, also when wrapped: drizzle rethrows a failed query as `Failed query: …` (with the
 * query's parameters, so its own text is not matched) and the driver's error as its cause. */
function isUnavailable(err: { code?: string; message?: unknown; cause?: unknown } | undefined): boolean {
  for (let e = err, depth = 0; e && depth < 3; e = e.cause as typeof err, depth++) {
    if (typeof e.code === 'string' && isUnavailableCode(e.code)) return true;
    const message = typeof e.message === 'string' && !e.message.startsWith('Failed query:') ? e.message : '';
    if (message && unavailableMessages.some((r) => r.test(message))) return true;
  }
  return false;
}

/** PostgreSQL refusing text the client sent (a NUL character, bytes invalid in UTF-8): the request is at fault. */
const unstorableTextCodes = new Set(['22021', '22P05']);

/**
 * What body-parser reports besides the typed cases above, as the http-error it made (`expose`, a 4xx status): a
 * Content-Encoding that does not inflate (zlib's Z_* or brotli's codes; the client's fault, never a 500), a body
 * shorter or longer than its Content-Length, and anything else it refuses.
 */
function bodyReadError(e: (BodyParserError & { code?: string; expose?: boolean }) | undefined): AppError | undefined {
  if (e?.expose !== true || typeof e.status !== 'number' || e.status < 400 || e.status >= 500) return undefined;
  if (typeof e.code === 'string' && /^(Z_|ERR__ERROR_|ERR_BROTLI|ERR_ZSTD)/.test(e.code)) {
    return new AppError(
      'Request.InvalidEncoding',
      400,
      'The request body is not valid data of its Content-Encoding (gzip, deflate, br): it could not be decompressed.',
    );
  }
  if (e.type === 'request.size.invalid') {
    return new AppError('Request.InvalidBody', 400, 'The request body does not match its Content-Length.');
  }
  return new AppError('Request.InvalidBody', e.status, 'The request body could not be read.');
}

export function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  if (err instanceof z.ZodError) return validationError(err, 'Request.Invalid');
  const e = err as BodyParserError & { code?: string };
  const pgCode = e?.code ?? (e?.cause as { code?: string } | undefined)?.code;
  if (pgCode && unstorableTextCodes.has(pgCode)) {
    return new AppError(
      'Request.InvalidText',
      400,
      'Text in the request contains a character that cannot be stored (NUL).',
    );
  }
  switch (e?.type) {
    case 'entity.parse.failed':
      return invalidJson();
    case 'entity.too.large':
      return new AppError('Request.TooLarge', 413, 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('Request.UnsupportedMediaType', 415, 'The request body encoding is not supported.');
    case 'request.aborted':
      return new AppError('Request.Aborted', 400, 'The request was aborted by the client.');
  }
  const bodyError = bodyReadError(e);
  if (bodyError) return bodyError;
  if (isUnavailable(e)) return serviceUnavailable();
  return new AppError('Server.Error', 500, 'Internal server error.', { cause: err });
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err);
    if (appError.status >= 500) logger.error({ err, ...loggedPath(req.path), code: appError.code }, 'request error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    renderError(res, routeFamilyOfRequest(req), appError);
  };
}

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(notFound('Route.NotFound', `No route for ${req.method} ${req.path}.${baseUrlHint(req.path)}`));
};
