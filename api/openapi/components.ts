// Shared parts of the OpenAPI document: security schemes and the error body of each route family.
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
// The OpenAPI 3.1 types zod-to-openapi is built on (it does not re-export them).
import type { SchemaObject } from 'openapi3-ts/oas31';

const text: SchemaObject = { type: 'string' };
const integer: SchemaObject = { type: 'integer' };

const errorBodies: Record<string, SchemaObject> = {
  Problem: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail'],
    properties: {
      type: { type: 'string', description: '`urn:ockhub:problem:` and the code.' },
      title: { type: 'string', description: 'The stable code, such as `Mcp.NotFound`: what a client branches on.' },
      status: integer,
      detail: { type: 'string', description: 'What went wrong, for a person; a 400 names the first field.' },
      errors: {
        type: 'array',
        description: 'A 400 of validation: every field that failed (`path` is dotted, empty for the body itself).',
        items: { type: 'object', required: ['path', 'message'], properties: { path: text, message: text } },
      },
      problems: {
        type: 'array',
        description: '400 Skill.InvalidBundle: every reason the uploaded bundle was refused.',
        items: text,
      },
    },
  },
  AnthropicError: {
    type: 'object',
    required: ['type', 'error'],
    properties: {
      type: { const: 'error' },
      error: { type: 'object', required: ['type', 'message'], properties: { type: text, message: text } },
    },
  },
  OpenAIError: {
    type: 'object',
    required: ['error'],
    properties: {
      error: { type: 'object', required: ['message', 'type'], properties: { message: text, type: text, code: text } },
    },
  },
  RegistryError: { type: 'object', required: ['error'], properties: { error: text } },
  EnvelopeError: {
    type: 'object',
    required: ['data', 'code', 'error'],
    properties: {
      data: { type: 'null' },
      code: integer,
      error: { type: 'object', required: ['code', 'message'], properties: { code: text, message: text } },
    },
  },
};

export function registerComponents(registry: OpenAPIRegistry): void {
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An `ock_` API key or an `ocs_` console session token.',
  });
  registry.registerComponent('securitySchemes', 'xApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'A project-bound `ock_` API key (gateway routes only).',
  });
  registry.registerComponent('securitySchemes', 'consoleCookie', {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-ockhub_session',
    description:
      'The HttpOnly console session cookie set by POST /api/v1/auth/session (`ockhub_session` over plain http; two ' +
      'of it in one request: 401, and it is cleared); a state-changing request with it must ' +
      'come from this origin (Sec-Fetch-Site or Origin), else 403 Auth.CrossSiteRequest.',
  });
  registry.registerComponent('securitySchemes', 'metricsToken', {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN setting.',
  });
  for (const [name, schema] of Object.entries(errorBodies)) registry.registerComponent('schemas', name, schema);
}
