// A steady stream of real HTTP requests against an API listening on loopback, with a client deadline per request,
// recording every outcome so a fault test can tell 200s, 503s in the family's error shape, other 5xx and hangs
// apart, per phase of the fault.
import { Agent, request } from 'undici';
import { type RouteFamily, routeFamilyOf } from '../../../api/http/route-family.js';

export type Probe = {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  /** JSON body of request number n. */
  body?: (n: number) => unknown;
};

export type Outcome = {
  probe: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status, or 0 when the client deadline passed (a hang) or the connection failed. */
  status: number;
  hang: boolean;
  body: string;
  contentType: string;
};

export type Load = { outcomes: Outcome[]; stop(): Promise<Outcome[]> };

export function startLoad(origin: string, probes: Probe[], options: { everyMs?: number; deadlineMs?: number } = {}) {
  const everyMs = options.everyMs ?? 100;
  const deadlineMs = options.deadlineMs ?? 10_000;
  const agent = new Agent({ connections: 64, headersTimeout: deadlineMs, bodyTimeout: deadlineMs });
  const outcomes: Outcome[] = [];
  const inFlight = new Set<Promise<void>>();
  let n = 0;

  const fire = (probe: Probe) => {
    const startedAt = Date.now();
    const number = n++;
    const done = request(`${origin}${probe.path}`, {
      method: probe.method,
      dispatcher: agent,
      headers: { ...(probe.body ? { 'content-type': 'application/json' } : {}), ...probe.headers },
      ...(probe.body ? { body: JSON.stringify(probe.body(number)) } : {}),
      signal: AbortSignal.timeout(deadlineMs),
    })
      .then(async (res) => ({
        status: res.statusCode,
        hang: false,
        body: await res.body.text(),
        contentType: String(res.headers['content-type'] ?? ''),
      }))
      .catch((err: Error) => ({
        status: 0,
        hang: /timeout|abort/i.test(`${err.name} ${err.message}`),
        body: err.message,
        contentType: '',
      }))
      .then((r) => {
        outcomes.push({ probe: probe.name, startedAt, endedAt: Date.now(), ...r });
      });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };

  const timer = setInterval(() => {
    for (const probe of probes) fire(probe);
  }, everyMs);

  return {
    outcomes,
    async stop() {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      await agent.close();
      return outcomes;
    },
  } satisfies Load;
}

/** A 503 rendered in the error shape of the path's route family, naming a stable code. */
export function isShaped503(outcome: Outcome, path: string): boolean {
  if (outcome.status !== 503) return false;
  // /ready answers its own readiness document, naming the service that is down.
  if (path === '/ready') return /"status":"unavailable"/.test(outcome.body) && /"down"/.test(outcome.body);
  const family: RouteFamily = routeFamilyOf(path);
  try {
    const body = JSON.parse(outcome.body);
    switch (family) {
      case 'catalog':
        return outcome.contentType.startsWith('application/problem+json') && typeof body.title === 'string';
      case 'organization':
        return body.data === null && body.code === 503 && typeof body.error?.code === 'string';
      case 'gateway':
        return body.error?.type === 'service_unavailable' && typeof body.error?.message === 'string';
      case 'messages':
        return body.type === 'error' && typeof body.error?.type === 'string';
      case 'mcpRegistry':
        return typeof body.error === 'string';
    }
  } catch {
    return false;
  }
}

/** Answers that are neither a success nor a 503 in the family's shape, shortened for a readable failure. */
export function misshaped(outcomes: Outcome[], probes: Probe[]) {
  const pathOf = new Map(probes.map((p) => [p.name, p.path]));
  return outcomes
    .filter((o) => !(o.status >= 200 && o.status < 300) && !isShaped503(o, pathOf.get(o.probe) ?? '/'))
    .map((o) => ({ probe: o.probe, status: o.status, body: o.body.slice(0, 160) }));
}

/** Outcomes of requests that started in [from, to). */
export const startedBetween = (outcomes: Outcome[], from: number, to = Number.POSITIVE_INFINITY) =>
  outcomes.filter((o) => o.startedAt >= from && o.startedAt < to);

export type LoadSummary = { total: number; ok: number; answered503: number; unexpected5xx: number; hangs: number };

export function summarize(outcomes: Outcome[]): LoadSummary {
  return {
    total: outcomes.length,
    ok: outcomes.filter((o) => o.status >= 200 && o.status < 300).length,
    answered503: outcomes.filter((o) => o.status === 503).length,
    unexpected5xx: outcomes.filter((o) => o.status >= 500 && o.status !== 503).length,
    hangs: outcomes.filter((o) => o.hang || o.status === 0).length,
  };
}

/** The first success of `probe` among requests started at or after `from` (ms since epoch), if any. */
export function firstSuccessAfter(outcomes: Outcome[], probe: string, from: number): Outcome | undefined {
  return outcomes
    .filter((o) => o.probe === probe && o.startedAt >= from && o.status >= 200 && o.status < 300)
    .sort((a, b) => a.endedAt - b.endedAt)[0];
}
