// Every route area, in mount order, with its prefix and its route family (the error and body shapes of SPEC
// section 0). The router (mount.ts), the error renderer's choice (api/http/route-family.ts) and the OpenAPI
// document (api/openapi/document.ts) all read this one list: a new area is one line here.
import type { RouteFamily } from '../http/route-family.js';
import { adminArea } from './admin/admin.routes.js';
import { apiDocsArea } from './api-docs/api-docs.routes.js';
import { apiKeysArea } from './api-keys/api-keys.routes.js';
import { authArea } from './auth/auth.routes.js';
import { catalogArea } from './catalog/catalog.routes.js';
import { consoleArea } from './console/console.routes.js';
import { filesArea } from './files/files.routes.js';
import { gatewayArea } from './gateway/gateway.routes.js';
import { messagesArea } from './gateway/messages.routes.js';
import { modelsArea } from './gateway/models.routes.js';
import { githubArea } from './github/github.routes.js';
import { healthArea } from './health/health.routes.js';
import { mcpRegistryArea } from './mcp-registry/mcp-registry.routes.js';
import { metricsArea } from './metrics/metrics.routes.js';
import { moderationArea } from './moderation/moderation.routes.js';
import { organizationArea } from './organization/organization.routes.js';
import { organizationsArea } from './organizations/organizations.routes.js';
import { projectTemplatesArea } from './project-templates/project-templates.routes.js';
import { projectsArea } from './projects/projects.routes.js';
import { publisherArea } from './publisher/publisher.routes.js';
import { queueDashboardArea } from './queue-dashboard/queue-dashboard.routes.js';
import type { Area } from './route.js';
import { skillPackageArea } from './skill-package/skill-package.routes.js';
import { telemetryArea } from './telemetry/telemetry.routes.js';
import { walletArea } from './wallet/wallet.routes.js';

export type MountedArea = {
  /** Express syntax; '' for an area whose routes carry their full paths (operations endpoints, the console). */
  prefix: string;
  family: RouteFamily;
  area: Area;
};

export const mountedAreas: MountedArea[] = [
  // The gateway and telemetry first: the hot paths, and no other area's paths start with /v1/ (Messages has its own dialect, the
  // Models API answers Anthropic clients in theirs: route-family.ts).
  { prefix: '/v1/messages', family: 'messages', area: messagesArea },
  { prefix: '/v1/models', family: 'gateway', area: modelsArea },
  { prefix: '/v1', family: 'gateway', area: gatewayArea },
  { prefix: '/api/v1/telemetry', family: 'catalog', area: telemetryArea },
  { prefix: '', family: 'catalog', area: healthArea },
  { prefix: '', family: 'catalog', area: metricsArea },
  { prefix: '', family: 'catalog', area: queueDashboardArea },
  { prefix: '', family: 'catalog', area: apiDocsArea },
  { prefix: '', family: 'catalog', area: filesArea },
  { prefix: '/api/v1/auth', family: 'catalog', area: authArea },
  { prefix: '/api/v1/api-keys', family: 'catalog', area: apiKeysArea },
  { prefix: '/api/v1/admin', family: 'catalog', area: adminArea },
  { prefix: '/api/v1/github', family: 'catalog', area: githubArea },
  { prefix: '/api/organizations', family: 'organization', area: organizationsArea },
  { prefix: '/api/organization/wallet', family: 'organization', area: walletArea },
  { prefix: '/api/organization', family: 'organization', area: organizationArea },
  { prefix: '/api/projects', family: 'organization', area: projectsArea },
  { prefix: '/api/project-templates', family: 'organization', area: projectTemplatesArea },
  { prefix: '/api/v1/publisher/skill', family: 'catalog', area: skillPackageArea },
  { prefix: '/api/v1/publisher', family: 'catalog', area: publisherArea },
  { prefix: '/api/v1/moderation', family: 'catalog', area: moderationArea },
  // After the other /api/v1 areas: /api/v1/{type} passes every path whose {type} is not a catalog type on.
  { prefix: '/api/v1/:type', family: 'catalog', area: catalogArea },
  // The official registry serves the same API at /v0 and /v0.1 (mcp-publisher posts to /v0/publish): so do we.
  { prefix: '/v0.1', family: 'mcpRegistry', area: mcpRegistryArea },
  { prefix: '/v0', family: 'mcpRegistry', area: mcpRegistryArea },
  { prefix: '', family: 'catalog', area: consoleArea },
];
