// Echoes a valid incoming x-correlation-id or makes one, and runs the rest of the request inside its scope.
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { isValidCorrelationId, newCorrelationId, withCorrelationId } from '../../shared/logging/correlation.js';

/** The request's correlation id (the caller's when valid), kept in `res.locals`; the caller sets the header. */
export function takeCorrelationId(
  incoming: string | string[] | undefined,
  res: ServerResponse & { locals?: Record<string, unknown> },
): string {
  const id = isValidCorrelationId(incoming) ? incoming : newCorrelationId();
  res.locals ??= Object.create(null) as Record<string, unknown>;
  res.locals.correlationId = id;
  return id;
}

/** The request's correlation id (the caller's when valid), set on the answer and in `res.locals`. */
export function assignCorrelationId(
  incoming: string | string[] | undefined,
  res: ServerResponse & { locals?: Record<string, unknown> },
): string {
  const id = takeCorrelationId(incoming, res);
  res.setHeader('x-correlation-id', id);
  return id;
}

export const correlationId: RequestHandler = (req, res, next) => {
  withCorrelationId(assignCorrelationId(req.headers['x-correlation-id'], res), next);
};
