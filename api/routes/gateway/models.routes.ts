// GET /v1/models: the registry in Anthropic's list shape; neither counted nor billed.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { gatewayAuth } from '../../middleware/gateway-auth.js';

export function modelsRoutes(ctx: AppContext): Router {
  const router = Router();
  const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
  const data = registry.models.map((m) => ({
    id: m.id,
    type: 'model',
    display_name: m.displayName,
    created_at: m.createdAt,
    capabilities: [m.capability],
  }));
  const page = { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  router.get('/v1/models', ...gatewayAuth(ctx, { allowXApiKey: true }), (_req, res) => {
    res.json(page);
  });
  return router;
}
