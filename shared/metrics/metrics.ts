// The process's Prometheus metrics (prom-client): one registry, the process, HTTP, accounting and upstream
// instruments, and small recording functions so domain code never touches prom-client directly.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const metricsRegistry = new Registry();

let processMetricsRole: string | undefined;

/** Node.js process metrics (CPU, memory, event loop lag, GC) labelled role="web" or "worker"; once per process. */
export function collectProcessMetrics(role: 'web' | 'worker'): void {
  if (processMetricsRole) return;
  processMetricsRole = role;
  collectDefaultMetrics({ register: metricsRegistry, labels: { role } });
}

const latencyBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const httpRequestDuration = new Histogram({
  name: 'ockhub_http_request_duration_seconds',
  help: 'HTTP request latency from arrival to the end of the response, by route family and status class.',
  labelNames: ['family', 'status_class'] as const,
  buckets: latencyBuckets,
  registers: [metricsRegistry],
});

const gatewayRequests = new Counter({
  name: 'ockhub_gateway_requests_total',
  help: 'Settled gateway requests, by operation and outcome status.',
  labelNames: ['operation', 'status'] as const,
  registers: [metricsRegistry],
});

const gatewayTokens = new Counter({
  name: 'ockhub_gateway_tokens_total',
  help: 'Tokens billed by settled gateway requests, by operation and token kind.',
  labelNames: ['operation', 'kind'] as const,
  registers: [metricsRegistry],
});

const gatewaySpend = new Counter({
  name: 'ockhub_gateway_spend_micro_usd_total',
  help: 'Money charged by settled gateway requests in micro-USD, by operation.',
  labelNames: ['operation'] as const,
  registers: [metricsRegistry],
});

const upstreamDuration = new Histogram({
  name: 'ockhub_upstream_response_seconds',
  help: 'Time from sending an upstream request to its response headers, by provider and status class.',
  labelNames: ['provider', 'status_class'] as const,
  buckets: latencyBuckets,
  registers: [metricsRegistry],
});

const passwordHashesRefused = new Counter({
  name: 'ockhub_password_hashes_refused_total',
  help: 'Password hashes refused with 503 Auth.Busy because every hashing thread was busy and its queue full.',
  registers: [metricsRegistry],
});

/** Called by the password hasher (shared/identity/password-hasher.ts) each time it refuses a hash. */
const largeBodiesRefused = new Counter({
  name: 'ockhub_large_bodies_refused_total',
  help: 'Large gateway bodies answered 503 Server.Busy because the bodies in flight held the budget.',
  registers: [metricsRegistry],
});

const largeBodyBytesInFlight = new Gauge({
  name: 'ockhub_large_body_bytes_in_flight',
  help: 'Bytes claimed by the large gateway bodies this API process is reading or answering (LARGE_BODY_BUDGET_BYTES).',
  registers: [metricsRegistry],
});

export function recordLargeBodyRefused(): void {
  largeBodiesRefused.inc();
}

export function setLargeBodyBytesInFlight(bytes: number): void {
  largeBodyBytesInFlight.set(bytes);
}

export function recordPasswordHashRefused(): void {
  passwordHashesRefused.inc();
}

/** "2xx" for 204, "5xx" for 503; "error" when no status came back. */
export function statusClass(status: number | undefined): string {
  return status && status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'error';
}

export type SettledRequest = {
  operation: string;
  status: string;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number };
  costMicros: bigint;
};

/** Called once per settled charge (shared/gateway/accounting.ts closeCharge). */
export function recordSettledRequest({ operation, status, usage, costMicros }: SettledRequest): void {
  gatewayRequests.inc({ operation, status });
  const kinds = {
    input: usage.inputTokens,
    output: usage.outputTokens,
    cache_read: usage.cacheReadTokens,
    cache_write: usage.cacheWriteTokens,
  };
  for (const [kind, count] of Object.entries(kinds)) {
    if (count > 0) gatewayTokens.inc({ operation, kind }, count);
  }
  // Counters hold doubles: exact up to 2^53 micro-USD (about 9 billion USD) per process lifetime.
  if (costMicros > 0n) gatewaySpend.inc({ operation }, Number(costMicros));
}

/** Times an upstream call up to its response headers; a thrown call is recorded with status class "error". */
export async function timeUpstream<T extends { status: number }>(provider: string, call: () => Promise<T>): Promise<T> {
  const end = upstreamDuration.startTimer({ provider });
  try {
    const reply = await call();
    end({ status_class: statusClass(reply.status) });
    return reply;
  } catch (err) {
    end({ status_class: 'error' });
    throw err;
  }
}
