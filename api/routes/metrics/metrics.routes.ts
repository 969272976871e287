// GET /metrics in Prometheus text format, behind `Authorization: Bearer <METRICS_TOKEN>`. Without a
// METRICS_TOKEN the route answers 404 like any unknown path, so metrics are never open by accident.
import { Registry } from 'prom-client';
import { notFound, unauthorized } from '../../../shared/errors/app-error.js';
import { metricsRegistry } from '../../../shared/metrics/metrics.js';
import { metricsAccess } from '../../../shared/metrics/metrics-access.js';
import { queueDepthRegistry } from '../../../shared/metrics/queue-depth.js';
import type { Area } from '../route.js';

export const metricsArea: Area = {
  tag: 'Operations',
  routes: [
    {
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics (text format); 404 when METRICS_TOKEN is not set',
      access: 'metrics',
      content: 'text',
      handler: (ctx) => {
        const queueDepth = queueDepthRegistry(ctx.queues);
        return async (req, res) => {
          const access = metricsAccess(ctx.config.METRICS_TOKEN, req.header('authorization'));
          if (access === 'off') throw notFound('Route.NotFound', `No route for ${req.method} ${req.path}.`);
          if (access === 'denied') throw unauthorized();
          // Merged per scrape so instruments registered after start (process metrics, job metrics) are included.
          const registry = Registry.merge([metricsRegistry, queueDepth]);
          res.type(registry.contentType).send(await registry.metrics());
        };
      },
    },
  ],
};
