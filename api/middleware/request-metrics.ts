// Observes every request's latency into the HTTP histogram, labelled by route family and status class.
import type { RequestHandler } from 'express';
import { httpRequestDuration, statusClass } from '../../shared/metrics/metrics.js';
import { routeFamilyOf } from '../http/route-family.js';

export const requestMetrics: RequestHandler = (req, res, next) => {
  const end = httpRequestDuration.startTimer();
  const family = routeFamilyOf(req.path);
  res.on('finish', () => end({ family, status_class: statusClass(res.statusCode) }));
  res.on('close', () => {
    if (!res.writableFinished) end({ family, status_class: 'aborted' });
  });
  next();
};
