// POST /api/v1/telemetry: anonymous usage events, validated and enqueued; counting happens in the workers.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { acceptTelemetry } from '../../../shared/telemetry/telemetry-ingest.js';
import { body } from '../../http/validate.js';
import { telemetryBody } from './telemetry.schemas.js';

export function telemetryRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post('/', async (req, res) => {
    const input = body(req, telemetryBody, 'Telemetry.Invalid');
    await acceptTelemetry(ctx, input, { ip: req.ip ?? req.socket.remoteAddress ?? 'unknown' });
    res.json({ recorded: true });
  });
  return router;
}
