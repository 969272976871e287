// Echoes a valid incoming x-correlation-id or makes one, and runs the rest of the request inside its scope.
import type { RequestHandler } from 'express';
import { isValidCorrelationId, newCorrelationId, withCorrelationId } from '../../shared/logging/correlation.js';

export const correlationId: RequestHandler = (req, res, next) => {
  const incoming = req.header('x-correlation-id');
  const id = isValidCorrelationId(incoming) ? incoming : newCorrelationId();
  res.locals.correlationId = id;
  res.setHeader('x-correlation-id', id);
  withCorrelationId(id, next);
};
