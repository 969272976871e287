// Every route area of the API, mounted in one place.
import type { Express } from 'express';
import type { AppContext } from '../../shared/context.js';
import { healthRoutes } from './health/health.routes.js';

export function mountRoutes(app: Express, ctx: AppContext): void {
  app.use(healthRoutes(ctx));
}
