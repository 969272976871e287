// ockhub as it is deployed, for the tests of a deployment shape (PgBouncer, Redis Cluster): the API listening on a
// real port in this process, a worker process running every queue, the simulator, a funded project key and catalog
// actors; and the round trips those tests make through it (paid messages, a video task, telemetry installs).
import { eq } from 'drizzle-orm';
import { catalogItems } from '../../shared/db/schema/index.js';
import { type Actors, createActors, publishItem } from './catalog-factory.js';
import { consumeRecords, type GatewayWorld, openGatewayWorld, walletOf } from './gateway.js';
import { startProcess, type TestEnv, type WorkerProcess, waitUntil } from './harness.js';
import { listeningServer } from './loopback-ports.js';

export const BALANCE = 100;

export type ListeningWorld = GatewayWorld & { worker: WorkerProcess; actors: Actors };

/** Whatever was opened before a failure is closed again, so a set-up that fails leaves no process behind. */
export async function openListeningWorld(env: TestEnv): Promise<ListeningWorld> {
  const { server: api, origin } = await listeningServer();
  const closeApi = () => new Promise((r) => api.close(r));
  const w = await openGatewayWorld({
    balance: String(BALANCE),
    env: { PUBLIC_BASE_URL: origin, VIDEO_POLL_INTERVAL_MS: '200', ...env },
    simulator: { videoDurationMs: 300 },
  }).catch(async (err: unknown) => {
    await closeApi();
    throw err;
  });
  api.on('request', w.h.app);
  let worker: WorkerProcess | undefined;
  try {
    worker = await startProcess(w.h.env);
    const actors = await createActors(w.h);
    const started = worker;
    return {
      ...w,
      worker: started,
      actors,
      async close() {
        await started.stop();
        await closeApi();
        await w.close();
      },
    };
  } catch (err) {
    await worker?.stop();
    await closeApi();
    await w.close();
    throw err;
  }
}

const bearerKey = (w: GatewayWorld) => ({ authorization: `Bearer ${w.key}` });

/**
 * `count` concurrent paid Messages calls, every `streamEvery`-th one streamed: their HTTP statuses, and what they
 * spent in micro-units once the wallet is exact (nothing reserved, `count` Consume records, balance + spent = the
 * starting balance). The ledger is written behind, so the wallet is exact once the last batch is committed and
 * acknowledged in Redis (between the two, a sync can count a batch twice for a moment).
 */
export async function paidMessages(w: GatewayWorld, count: number, streamEvery: number) {
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      w.h.http
        .post('/v1/messages')
        .set(bearerKey(w))
        .send({
          model: 'claude-sonnet-5',
          max_tokens: 64,
          stream: i % streamEvery === 0,
          messages: [{ role: 'user', content: `hello ${i}` }],
        }),
    ),
  );
  const statuses = answers.map((r) => r.status);
  const spent = (consumes: { amount: number }[]) => consumes.reduce((sum, r) => sum + Math.round(r.amount * 1e6), 0);
  const spentMicros = await waitUntil(async () => {
    const [wallet, consumes] = await Promise.all([walletOf(w.h, w.org), consumeRecords(w.h, w.org)]);
    const exact = Math.round(wallet.balance * 1e6) + spent(consumes) === BALANCE * 1e6;
    return wallet.frozenAmount === 0 && consumes.length === count && exact ? spent(consumes) : undefined;
  }, 30_000);
  return { statuses, spentMicros };
}

/** Creates a video task and waits for its final state; `headers` may add an Idempotency-Key. */
export function createVideo(w: GatewayWorld, headers: Record<string, string> = {}) {
  return w.h.http
    .post('/v1/videos')
    .set({ ...bearerKey(w), ...headers })
    .send({ model: 'seedance-1-0-pro', duration: 5, ratio: '16:9', resolution: '720p', prompt: 'a kite' });
}

/** Publishes an agent, sends one install event per client id, and waits until the worker has counted `expected`. */
export async function countedInstalls(w: ListeningWorld, clientIds: string[], expected: number): Promise<number> {
  const item = await publishItem(w.h, w.actors, 'agent');
  for (const clientId of clientIds) {
    const res = await w.h.http
      .post('/api/v1/telemetry')
      .send({ itemType: 'agent', slug: item.slug, eventType: 'install', clientId });
    if (res.status !== 200) throw new Error(`telemetry: ${res.status} ${res.text}`);
  }
  return waitUntil(async () => {
    const [row] = await w.h.ctx.db
      .select({ installs: catalogItems.installCount })
      .from(catalogItems)
      .where(eq(catalogItems.id, item.id));
    return row && row.installs >= expected ? row.installs : undefined;
  }, 30_000);
}
