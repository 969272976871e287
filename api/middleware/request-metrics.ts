// Observes every request's latency into the HTTP histogram, labelled by route family and status class.
import type { ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { httpRequestDuration, statusClass } from '../../shared/metrics/metrics.js';
import { type RouteFamily, routeFamilyOf } from '../http/route-family.js';

type Observe = (seconds: number) => void;

// One bound child per label pair, made on first use: the histogram's own `startTimer` merges and checks the labels on
// every request, which showed in the telemetry intake's CPU (docs/telemetry.md).
const observers = new Map<string, Observe>();

function observerOf(family: RouteFamily, statusClassName: string): Observe {
  const key = `${family} ${statusClassName}`;
  let observe = observers.get(key);
  if (!observe) {
    observe = httpRequestDuration.labels({ family, status_class: statusClassName }).observe;
    observers.set(key, observe);
  }
  return observe;
}

/** Observes the answer's latency when it has been sent, or as aborted when the connection closed before. */
export function observeWhenAnswered(family: RouteFamily, res: ServerResponse): void {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  res.on('finish', () => observerOf(family, statusClass(res.statusCode))(seconds()));
  res.on('close', () => {
    if (!res.writableFinished) observerOf(family, 'aborted')(seconds());
  });
}

export const requestMetrics: RequestHandler = (req, res, next) => {
  observeWhenAnswered(routeFamilyOf(req.path), res);
  next();
};
