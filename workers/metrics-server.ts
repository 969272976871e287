// A worker process's Prometheus endpoint (WORKER_METRICS_PORT, off at 0): GET /metrics on a bare node:http server,
// behind the same METRICS_TOKEN check as the API's route, and GET /health (200 "ok", no token: it answers only while
// the process's event loop turns, which is what a container health check needs). Any other path, or /metrics
// without a token set, is 404.
import { createServer, type Server } from 'node:http';
import type { AppContext } from '../shared/context.js';
import { metricsRegistry } from '../shared/metrics/metrics.js';
import { metricsAccess } from '../shared/metrics/metrics-access.js';

export type MetricsEndpoint = { server: Server; url: string };

/** Listens when WORKER_METRICS_PORT is set (rejects if the port is taken) and closes with the context. */
export async function serveWorkerMetrics(ctx: AppContext): Promise<MetricsEndpoint | undefined> {
  const { WORKER_METRICS_PORT: port, WORKER_METRICS_HOST: host, METRICS_TOKEN: token } = ctx.config;
  if (port === 0) return undefined;
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://worker').pathname;
    if (req.method === 'GET' && path === '/health') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('ok\n');
      return;
    }
    const access =
      req.method === 'GET' && path === '/metrics' ? metricsAccess(token, req.headers.authorization) : 'off';
    if (access !== 'granted') {
      const status = access === 'denied' ? 401 : 404;
      if (status === 401) res.setHeader('www-authenticate', 'Bearer');
      res
        .writeHead(status, { 'content-type': 'text/plain; charset=utf-8' })
        .end(status === 401 ? 'Unauthorized\n' : 'Not found\n');
      return;
    }
    try {
      const body = await metricsRegistry.metrics();
      res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(body);
    } catch (err) {
      ctx.logger.error({ err }, 'worker metrics could not be collected');
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics unavailable\n');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => ctx.logger.error({ err }, 'worker metrics server error'));
  ctx.onClose(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`;
  if (!token) ctx.logger.warn({ url }, 'METRICS_TOKEN is not set: the worker metrics endpoint answers 404');
  return { server, url };
}
