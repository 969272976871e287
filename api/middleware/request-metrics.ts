// Observes every request's latency into the HTTP histogram, labelled by route family and status class.
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { httpRequestDuration, statusClass } from '../../shared/metrics/metrics.js';
import { type RouteFamily, routeFamilyOf } from '../http/route-family.js';

/** Observes the answer's latency when it has been sent, or as aborted when the connection closed before. */
export function observeWhenAnswered(family: RouteFamily, res: ServerResponse): void {
  const end = httpRequestDuration.startTimer();
  res.on('finish', () => end({ family, status_class: statusClass(res.statusCode) }));
  res.on('close', () => {
    if (!res.writableFinished) end({ family, status_class: 'aborted' });
  });
}

export const requestMetrics: RequestHandler = (req, res, next) => {
  observeWhenAnswered(routeFamilyOf(req.path), res);
  next();
};
