// Every route area of the API, mounted in one place.
import type { Express } from 'express';
import type { AppContext } from '../../shared/context.js';
import { adminRoutes } from './admin/admin.routes.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { healthRoutes } from './health/health.routes.js';

export function mountRoutes(app: Express, ctx: AppContext): void {
  app.use(healthRoutes(ctx));
  app.use('/api/v1/auth', authRoutes(ctx));
  app.use('/api/v1/api-keys', apiKeyRoutes(ctx));
  app.use('/api/v1/admin', adminRoutes(ctx));
}
