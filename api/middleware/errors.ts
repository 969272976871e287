// Maps anything thrown by a route to an AppError and renders it in the shape of the route's family.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { AppError, isAppError, notFound, serviceUnavailable } from '../../shared/errors/app-error.js';
import { validationError } from '../../shared/errors/validation.js';
import type { Logger } from '../../shared/logging/logger.js';
import { renderError } from '../http/error-renderers.js';
import { routeFamilyOf } from '../http/route-family.js';

type BodyParserError = Error & { type?: string; status?: number };

const unavailableMessages = [
  /Connection is closed/,
  /enableOfflineQueue/,
  /MaxRetriesPerRequest/i,
  /Command timed out/,
];
const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  '57P01',
  '57P03',
  '08006',
  '08001',
  '53300',
]);

/** PostgreSQL refusing text the client sent (a NUL character, bytes invalid in UTF-8): the request is at fault. */
const unstorableTextCodes = new Set(['22021', '22P05']);

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
      return new AppError('Request.InvalidJson', 400, 'The request body is not valid JSON.');
    case 'entity.too.large':
      return new AppError('Request.TooLarge', 413, 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('Request.UnsupportedMediaType', 415, 'The request body encoding is not supported.');
    case 'request.aborted':
      return new AppError('Request.Aborted', 400, 'The request was aborted by the client.');
  }
  if (
    (e?.code && unavailableCodes.has(e.code)) ||
    (typeof e?.message === 'string' && unavailableMessages.some((r) => r.test(e.message)))
  ) {
    return serviceUnavailable();
  }
  return new AppError('Server.Error', 500, 'Internal server error.', { cause: err });
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err);
    if (appError.status >= 500) logger.error({ err, path: req.path, code: appError.code }, 'request error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    renderError(res, routeFamilyOf(req.path), appError);
  };
}

export const unknownRoute: RequestHandler = (req, _res, next) => {
  next(notFound('Route.NotFound', `No route for ${req.method} ${req.path}.`));
};
