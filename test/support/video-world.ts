// A video test world: the gateway world (simulator in process, a funded project key), the API listening on a real
// loopback port (so /files URLs resolve), a loopback image server for reference images, and a real video worker.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type GatewayWorld, openGatewayWorld, walletOf } from './gateway.js';
import { startProcess, type TestEnv, type WorkerProcess, waitUntil } from './harness.js';
import { listeningServer } from './loopback-ports.js';

export type VideoWorld = GatewayWorld & {
  baseUrl: string;
  images: { url(path: string): string; serve(path: string, body: Buffer, type?: string): void };
  worker: WorkerProcess;
  startWorker(): Promise<WorkerProcess>;
  api(): { key: string };
};

export async function openVideoWorld(
  options: { env?: TestEnv; videoMs?: number; queues?: string } = {},
): Promise<VideoWorld> {
  const { server: api, origin: baseUrl } = await listeningServer();
  const world = await openGatewayWorld({
    balance: '100',
    env: {
      PUBLIC_BASE_URL: baseUrl,
      VIDEO_POLL_INTERVAL_MS: '200',
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      ...options.env,
    },
    simulator: { videoDurationMs: options.videoMs ?? 500 },
  });
  api.on('request', world.h.app);

  const served = new Map<string, { body: Buffer; type: string }>();
  const imageServer: Server = createServer((req, res) => {
    const found = served.get(req.url ?? '');
    if (!found) return res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': found.type, 'content-length': String(found.body.length) }).end(found.body);
  });
  imageServer.listen(0, '127.0.0.1');
  await new Promise((r) => imageServer.once('listening', r));
  const imageOrigin = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;

  const startWorker = () =>
    startProcess(world.h.env, { extraEnv: { WORKER_QUEUES: options.queues ?? 'video,video-rehost' } });
  const out: VideoWorld = {
    ...world,
    baseUrl,
    images: {
      url: (path) => `${imageOrigin}${path}`,
      serve: (path, body, type = 'image/png') => void served.set(path, { body, type }),
    },
    worker: await startWorker(),
    startWorker,
    api: () => ({ key: world.key }),
    async close() {
      await out.worker.stop();
      await new Promise((r) => api.close(r));
      await new Promise((r) => imageServer.close(r));
      await world.close();
    },
  };
  return out;
}

/** Polls GET /v1/videos/{id} until the task is in a final state. */
export async function finalVideo(w: GatewayWorld, id: string, key = w.key, timeoutMs = 40_000) {
  return waitUntil(
    async () => {
      const res = await w.h.http.get(`/v1/videos/${id}`).set('authorization', `Bearer ${key}`);
      return ['completed', 'failed', 'cancelled'].includes(res.body.status) ? res.body : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Waits until nothing is reserved in the organization's wallet: the worker marks a task final, then settles it. */
export async function settledWallet(w: VideoWorld, org: Parameters<typeof walletOf>[1]) {
  return waitUntil(async () => {
    const wallet = await walletOf(w.h, org);
    return wallet.frozenAmount === 0 ? wallet : undefined;
  });
}
