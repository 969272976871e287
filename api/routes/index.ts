// Every route area of the API, mounted in one place.
import type { Express } from 'express';
import type { AppContext } from '../../shared/context.js';
import { adminRoutes } from './admin/admin.routes.js';
import { apiDocsRoutes } from './api-docs/api-docs.routes.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { catalogRoutes } from './catalog/catalog.routes.js';
import { filesRoutes } from './files/files.routes.js';
import { messagesRoutes } from './gateway/messages.routes.js';
import { modelsRoutes } from './gateway/models.routes.js';
import { videosRoutes } from './gateway/videos.routes.js';
import { webRoutes } from './gateway/web.routes.js';
import { githubRoutes } from './github/github.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { metricsRoutes } from './metrics/metrics.routes.js';
import { moderationRoutes } from './moderation/moderation.routes.js';
import { organizationRoutes } from './organization/organization.routes.js';
import { organizationsRoutes } from './organizations/organizations.routes.js';
import { projectTemplateRoutes } from './project-templates/project-templates.routes.js';
import { projectRoutes } from './projects/projects.routes.js';
import { publisherRoutes } from './publisher/publisher.routes.js';
import { queueDashboardRoutes } from './queue-dashboard/queue-dashboard.routes.js';
import { skillPackageRoutes } from './skill-package/skill-package.routes.js';
import { telemetryRoutes } from './telemetry/telemetry.routes.js';

export function mountRoutes(app: Express, ctx: AppContext): void {
  app.use(healthRoutes(ctx));
  app.use(metricsRoutes(ctx));
  app.use(queueDashboardRoutes(ctx));
  app.use(apiDocsRoutes(ctx));
  if (ctx.config.STORAGE_DRIVER === 'local') app.use(filesRoutes(ctx));
  app.use('/api/v1/auth', authRoutes(ctx));
  app.use('/api/v1/api-keys', apiKeyRoutes(ctx));
  app.use('/api/v1/admin', adminRoutes(ctx));
  app.use('/api/v1/github', githubRoutes(ctx));
  app.use('/api/organizations', organizationsRoutes(ctx));
  app.use('/api/organization', organizationRoutes(ctx));
  app.use('/api/projects', projectRoutes(ctx));
  app.use('/api/project-templates', projectTemplateRoutes(ctx));
  app.use('/api/v1/telemetry', telemetryRoutes(ctx));
  app.use('/api/v1/publisher/skill', skillPackageRoutes(ctx));
  app.use('/api/v1/publisher', publisherRoutes(ctx));
  app.use('/api/v1/moderation', moderationRoutes(ctx));
  // Last: /api/v1/{type} passes every path whose {type} is not a catalog type on to later areas.
  app.use('/api/v1/:type', catalogRoutes(ctx));
  app.use(modelsRoutes(ctx));
  app.use(messagesRoutes(ctx));
  app.use(videosRoutes(ctx));
  app.use(webRoutes(ctx));
}
