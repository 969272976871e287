// The one check in front of every /metrics endpoint (the API's route and each worker's metrics server):
// `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time; without a METRICS_TOKEN metrics are off.
import { timingSafeEqual } from 'node:crypto';

export type MetricsAccess = 'off' | 'denied' | 'granted';

function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** "off" (answer 404) when no token is configured, "denied" (401) for a missing or wrong bearer token. */
export function metricsAccess(token: string | undefined, authorization: string | undefined): MetricsAccess {
  if (!token) return 'off';
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return presented && sameSecret(presented, token) ? 'granted' : 'denied';
}
