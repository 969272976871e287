// A compact way for each route area to describe its routes to the OpenAPI registry: the request schemas are
// the zod schemas the routes validate with; error bodies follow the route family (SPEC section 0).
import type { OpenAPIRegistry, ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { type RouteFamily, routeFamilyOf } from '../http/route-family.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** public: no credential; bearer: `ock_` key or `ocs_` session; session: console session only; gateway:
 * project-bound key as bearer or x-api-key; metrics: METRICS_TOKEN. */
export type Access = 'public' | 'bearer' | 'session' | 'gateway' | 'metrics' | 'optional-bearer';

export type RouteDoc = {
  method: Method;
  path: string;
  summary: string;
  access: Access;
  body?: z.ZodType;
  /** multipart/form-data with these file fields instead of a JSON body. */
  multipartFiles?: string[];
  /** An object schema, or an object piped into a transform (its input object is documented). */
  query?: z.ZodObject | z.ZodPipe;
  /** The route reads the current organization from the X-Organization-Id header. */
  organization?: boolean;
  /** Success status and what it returns; JSON by default. */
  status?: number;
  returns?: string;
  content?: 'json' | 'text' | 'html' | 'none' | 'json-or-sse' | 'binary';
};

export type AreaPaths = (registry: OpenAPIRegistry) => void;

const errorSchemas: Record<RouteFamily, string> = {
  catalog: 'Problem',
  messages: 'AnthropicError',
  gateway: 'OpenAIError',
  organization: 'EnvelopeError',
};

const errorMediaType = (family: RouteFamily) =>
  family === 'catalog' ? 'application/problem+json' : 'application/json';

const security: Record<Access, RouteConfig['security']> = {
  public: [],
  bearer: [{ bearer: [] }],
  'optional-bearer': [{}, { bearer: [] }],
  session: [{ bearer: [] }],
  gateway: [{ bearer: [] }, { xApiKey: [] }],
  metrics: [{ metricsToken: [] }],
};

function pathParams(path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  if (names.length === 0) return undefined;
  return z.object(Object.fromEntries(names.map((n) => [n, z.string()])));
}

function successContent(doc: RouteDoc, family: RouteFamily): ResponseConfig['content'] {
  const any = z.any();
  switch (doc.content ?? 'json') {
    case 'none':
      return undefined;
    case 'text':
      return { 'text/plain': { schema: z.string() } };
    case 'html':
      return { 'text/html': { schema: z.string() } };
    case 'binary':
      return { 'application/octet-stream': { schema: z.string() } };
    case 'json-or-sse':
      return { 'application/json': { schema: any }, 'text/event-stream': { schema: z.string() } };
    default:
      return {
        'application/json': {
          schema: family === 'organization' ? z.object({ data: any, code: z.number().int(), error: z.null() }) : any,
        },
      };
  }
}

function errorResponse(family: RouteFamily, description: string): ResponseConfig {
  return {
    description,
    content: { [errorMediaType(family)]: { schema: { $ref: `#/components/schemas/${errorSchemas[family]}` } } },
  };
}

export function documentRoutes(registry: OpenAPIRegistry, tag: string, routes: RouteDoc[]): void {
  for (const doc of routes) {
    const family = routeFamilyOf(doc.path);
    const params = pathParams(doc.path);
    const status = doc.status ?? 200;
    const responses: Record<string, ResponseConfig> = {
      [status]: { description: doc.returns ?? 'Success.', content: successContent(doc, family) },
    };
    if (doc.body || doc.query || params || doc.multipartFiles) {
      responses[400] = errorResponse(family, 'The request is invalid.');
    }
    if (doc.access !== 'public') {
      responses[401] = errorResponse(family, 'Missing or invalid credentials.');
      responses[403] = errorResponse(family, 'The credential may not do this.');
    }
    if (params) responses[404] = errorResponse(family, 'Not found.');
    responses[503] = errorResponse(family, 'A backing service (PostgreSQL, Redis or the upstream) is unavailable.');

    const request: NonNullable<RouteConfig['request']> = {};
    if (params) request.params = params;
    if (doc.query) request.query = (doc.query instanceof z.ZodPipe ? doc.query.in : doc.query) as z.ZodObject;
    if (doc.organization) {
      request.headers = z.object({ 'x-organization-id': z.string().optional() });
    }
    if (doc.body) request.body = { required: true, content: { 'application/json': { schema: doc.body } } };
    if (doc.multipartFiles) {
      const fields = Object.fromEntries(doc.multipartFiles.map((f) => [f, z.string()]));
      request.body = { required: true, content: { 'multipart/form-data': { schema: z.object(fields) } } };
    }
    registry.registerPath({
      method: doc.method,
      path: doc.path,
      summary: doc.summary,
      tags: [tag],
      security: security[doc.access],
      ...(Object.keys(request).length > 0 ? { request } : {}),
      responses,
    });
  }
}
