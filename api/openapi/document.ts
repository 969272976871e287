// Builds the OpenAPI 3.1 document from the route areas' registrations (request schemas = the routes' zod schemas).
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { areaPaths } from './areas.js';
import { registerComponents } from './components.js';

type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

let built: OpenApiDocument | undefined;

export function openApiDocument(): OpenApiDocument {
  if (built) return built;
  const registry = new OpenAPIRegistry();
  registerComponents(registry);
  for (const register of areaPaths) register(registry);
  built = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'ockhub API',
      version: '1',
      description:
        'The catalog (`/api/v1`, problem+json errors), the organization console (`/api/organization…`, ' +
        '`{data, code, error}` envelope) and the AI gateway (`/v1`, vendor error shapes).',
    },
  });
  return built;
}
