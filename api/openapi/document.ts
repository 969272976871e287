// Builds the OpenAPI 3.1 document from the route declarations of every area (api/routes/areas.ts): request
// schemas are the zod schemas the routes validate with, so the document answers for exactly the routes mounted.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { mountedAreas } from '../routes/areas.js';
import { registerComponents } from './components.js';
import { documentArea } from './route-docs.js';

type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

let built: OpenApiDocument | undefined;

export function openApiDocument(): OpenApiDocument {
  if (built) return built;
  const registry = new OpenAPIRegistry();
  registerComponents(registry);
  for (const mounted of mountedAreas) documentArea(registry, mounted);
  built = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'ockhub API',
      version: '1',
      description:
        'The catalog (`/api/v1`, problem+json errors), the organization console (`/api/organization…`, ' +
        '`{data, code, error}` envelope), the AI gateway (`/v1`, vendor error shapes) and the MCP Registry API ' +
        '(`/v0.1`, the same at `/v0`, `{error}`).',
    },
  });
  return built;
}
