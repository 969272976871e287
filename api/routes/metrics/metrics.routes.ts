// GET /metrics in Prometheus text format, behind `Authorization: Bearer <METRICS_TOKEN>`. Without a
// METRICS_TOKEN the route answers 404 like any unknown path, so metrics are never open by accident.
import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { Registry } from 'prom-client';
import type { AppContext } from '../../../shared/context.js';
import { notFound, unauthorized } from '../../../shared/errors/app-error.js';
import { metricsRegistry } from '../../../shared/metrics/metrics.js';
import { queueDepthRegistry } from '../../../shared/metrics/queue-depth.js';

function sameSecret(presented: string, expected: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function metricsRoutes(ctx: AppContext): Router {
  const router = Router();
  const registry = Registry.merge([metricsRegistry, queueDepthRegistry(ctx.queues)]);
  router.get('/metrics', async (req, res) => {
    const token = ctx.config.METRICS_TOKEN;
    if (!token) throw notFound('Route.NotFound', `No route for ${req.method} ${req.path}.`);
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(req.header('authorization') ?? '')?.[1];
    if (!presented || !sameSecret(presented, token)) throw unauthorized();
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
