// The world of the Redis and PostgreSQL restart tests: a gateway world (funded project key, simulated provider)
// whose API listens on loopback, a real worker process for the telemetry and ledger queues, a published item, and the
// probes of the steady load: a catalog read, telemetry intake, an organization read, a paid gateway call and /ready.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, gte, min } from 'drizzle-orm';
import { catalogItems, telemetryFlushes } from '../../../shared/db/schema/index.js';
import { telemetryKeys } from '../../../shared/telemetry/telemetry-keys.js';
import { mirrorKeys } from '../../../shared/wallet/mirror-steps.js';
import { reconcileMirrors, reconcileWallets } from '../../../shared/wallet/reconciliation.js';
import { createActors, publishItem } from '../../support/catalog-factory.js';
import { consumeRecords, type GatewayWorld, openGatewayWorld } from '../../support/gateway.js';
import { startProcess, type TestEnv, type WorkerProcess, waitUntil } from '../../support/harness.js';
import { bearer } from '../../support/identity.js';
import { inOrg } from '../../support/org-fixtures.js';
import type { Outcome, Probe } from './steady-load.js';

export type OutageWorld = {
  w: GatewayWorld;
  origin: string;
  worker: WorkerProcess;
  item: { id: string; slug: string };
  probes: Probe[];
  /** The telemetry body of request n: a usage event (counted every time, 50 clients stay far below the cap). */
  usage(n: number): Record<string, string>;
  close(): Promise<void>;
};

export async function openOutageWorld(env: TestEnv): Promise<OutageWorld> {
  // The steady load sends 10 telemetry events a second from one address, the default per-address cap.
  const w = await openGatewayWorld({ balance: '10', env: { TELEMETRY_RATE_LIMIT_PER_MINUTE: '0', ...env } });
  const server: Server = w.h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const worker = await startProcess(w.h.env, { extraEnv: { WORKER_QUEUES: 'telemetry,ledger' } });
  const item = await publishItem(w.h, await createActors(w.h), 'mcp');
  const usage = (n: number) => ({ itemType: 'mcp', slug: item.slug, eventType: 'usage', clientId: `load-${n % 50}` });
  const probes: Probe[] = [
    { name: 'catalog read', method: 'GET', path: '/api/v1/mcp' },
    { name: 'telemetry enqueue', method: 'POST', path: '/api/v1/telemetry', body: usage },
    { name: 'wallet read', method: 'GET', path: '/api/organization/wallet', headers: inOrg(w.org.admin, w.org.id) },
    {
      name: 'web search',
      method: 'POST',
      path: '/v1/web/search',
      headers: bearer(w.key),
      body: (n) => ({ query: `q${n}` }),
    },
    { name: 'ready', method: 'GET', path: '/ready' },
  ];
  return {
    w,
    origin,
    worker,
    item,
    probes,
    usage,
    async close() {
      await worker.stop();
      await new Promise((r) => server.close(r));
      await w.close();
    },
  };
}

export async function usageCountOf(world: OutageWorld): Promise<number> {
  const [row] = await world.w.h.ctx.db
    .select({ usageCount: catalogItems.usageCount })
    .from(catalogItems)
    .where(eq(catalogItems.id, world.item.id));
  return row?.usageCount ?? 0;
}

/** When the worker first applied a telemetry flush to PostgreSQL at or after `since` (the server's clock). */
export async function firstFlushSince(world: OutageWorld, since: number): Promise<number | undefined> {
  const [row] = await world.w.h.ctx.db
    .select({ at: min(telemetryFlushes.createdAt) })
    .from(telemetryFlushes)
    .where(gte(telemetryFlushes.createdAt, new Date(since)));
  return row?.at ? new Date(row.at).getTime() : undefined;
}

/** The worker process is still the one started at the beginning (it neither crashed nor exited for a restart). */
export const workerStillRunning = (world: OutageWorld) =>
  world.worker.child.exitCode === null && world.worker.child.signalCode === null;

/** Waits until every accepted event has been flushed to PostgreSQL. */
export async function drainTelemetry(world: OutageWorld): Promise<void> {
  const { ctx, config } = world.w.h;
  const keys = telemetryKeys(config.REDIS_PREFIX);
  await waitUntil(
    async () => (await ctx.redis.exists(keys.pending, keys.flushing)) === 0 && (await ctx.redis.xlen(keys.once)) === 0,
    60_000,
    200,
  );
}

/** The events counted in Redis and not yet flushed to PostgreSQL. */
export async function unflushedEvents(world: OutageWorld): Promise<number> {
  const { ctx, config } = world.w.h;
  const pending = await ctx.redis.hgetall(telemetryKeys(config.REDIS_PREFIX).pending);
  return Object.entries(pending)
    .filter(([field]) => !field.includes('|tool|'))
    .reduce((sum, [, n]) => sum + Number(n), 0);
}

/** Waits until the ledger worker has written every settled request of the organization to PostgreSQL. */
export async function drainLedger(world: OutageWorld): Promise<void> {
  const stream = mirrorKeys(world.w.h.config.REDIS_PREFIX, world.w.org.id).l;
  await waitUntil(async () => (await world.w.h.ctx.redis.xlen(stream)) === 0, 60_000, 200);
}

/**
 * Every successful paid call billed exactly once, nothing else billed, and the ledger and the mirror reconcile,
 * once the ledger worker has drained the organization's stream.
 */
export async function billingOf(world: OutageWorld, outcomes: Outcome[]) {
  await drainLedger(world);
  const paid = outcomes.filter((o) => o.probe === 'web search' && o.status === 200).length;
  const records = await consumeRecords(world.w.h, world.w.org);
  return {
    paid,
    records: records.length,
    distinctRequests: new Set(records.map((r) => r.requestLogId)).size,
    problems: [
      ...(await reconcileWallets(world.w.h.ctx.db)).problems,
      ...(await reconcileMirrors(world.w.h.ctx)).problems,
    ],
  };
}
