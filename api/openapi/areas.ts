// Every route area's OpenAPI paths. A new route area adds its `<area>.openapi.ts` here (one line).
import { adminPaths } from '../routes/admin/admin.openapi.js';
import { apiDocsPaths } from '../routes/api-docs/api-docs.openapi.js';
import { apiKeysPaths } from '../routes/api-keys/api-keys.openapi.js';
import { authPaths } from '../routes/auth/auth.openapi.js';
import { catalogPaths } from '../routes/catalog/catalog.openapi.js';
import { filesPaths } from '../routes/files/files.openapi.js';
import { gatewayPaths } from '../routes/gateway/gateway.openapi.js';
import { videosAndWebPaths } from '../routes/gateway/videos-web.openapi.js';
import { githubPaths } from '../routes/github/github.openapi.js';
import { healthPaths } from '../routes/health/health.openapi.js';
import { metricsPaths } from '../routes/metrics/metrics.openapi.js';
import { moderationPaths } from '../routes/moderation/moderation.openapi.js';
import { organizationPaths } from '../routes/organization/organization.openapi.js';
import { organizationsPaths } from '../routes/organizations/organizations.openapi.js';
import { projectTemplatesPaths } from '../routes/project-templates/project-templates.openapi.js';
import { projectsPaths } from '../routes/projects/projects.openapi.js';
import { publisherPaths } from '../routes/publisher/publisher.openapi.js';
import { queueDashboardPaths } from '../routes/queue-dashboard/queue-dashboard.openapi.js';
import { telemetryPaths } from '../routes/telemetry/telemetry.openapi.js';
import type { AreaPaths } from './route-docs.js';

export const areaPaths: AreaPaths[] = [
  healthPaths,
  metricsPaths,
  apiDocsPaths,
  queueDashboardPaths,
  filesPaths,
  authPaths,
  apiKeysPaths,
  adminPaths,
  githubPaths,
  organizationsPaths,
  organizationPaths,
  projectsPaths,
  projectTemplatesPaths,
  telemetryPaths,
  publisherPaths,
  moderationPaths,
  catalogPaths,
  gatewayPaths,
  videosAndWebPaths,
];
