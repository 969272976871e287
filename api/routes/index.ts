// Every route area of the API, mounted in one place.
import type { Express } from 'express';
import type { AppContext } from '../../shared/context.js';
import { adminRoutes } from './admin/admin.routes.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { catalogRoutes } from './catalog/catalog.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { moderationRoutes } from './moderation/moderation.routes.js';
import { publisherRoutes } from './publisher/publisher.routes.js';

export function mountRoutes(app: Express, ctx: AppContext): void {
  app.use(healthRoutes(ctx));
  app.use('/api/v1/auth', authRoutes(ctx));
  app.use('/api/v1/api-keys', apiKeyRoutes(ctx));
  app.use('/api/v1/admin', adminRoutes(ctx));
  app.use('/api/v1/publisher', publisherRoutes(ctx));
  app.use('/api/v1/moderation', moderationRoutes(ctx));
  // Last: /api/v1/{type} passes every path whose {type} is not a catalog type on to later areas.
  app.use('/api/v1/:type', catalogRoutes(ctx));
}
