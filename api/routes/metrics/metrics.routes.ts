// GET /metrics in Prometheus text format, behind `Authorization: Bearer <METRICS_TOKEN>`. Without a
// METRICS_TOKEN the route answers 404 like any unknown path, so metrics are never open by accident.
import { Router } from 'express';
import { Registry } from 'prom-client';
import type { AppContext } from '../../../shared/context.js';
import { notFound, unauthorized } from '../../../shared/errors/app-error.js';
import { metricsRegistry } from '../../../shared/metrics/metrics.js';
import { metricsAccess } from '../../../shared/metrics/metrics-access.js';
import { queueDepthRegistry } from '../../../shared/metrics/queue-depth.js';

export function metricsRoutes(ctx: AppContext): Router {
  const router = Router();
  const queueDepth = queueDepthRegistry(ctx.queues);
  router.get('/metrics', async (req, res) => {
    const access = metricsAccess(ctx.config.METRICS_TOKEN, req.header('authorization'));
    if (access === 'off') throw notFound('Route.NotFound', `No route for ${req.method} ${req.path}.`);
    if (access === 'denied') throw unauthorized();
    // Merged per scrape so instruments registered after start (process metrics, job metrics) are included.
    const registry = Registry.merge([metricsRegistry, queueDepth]);
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
