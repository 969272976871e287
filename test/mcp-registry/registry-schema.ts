// The published constraints of the MCP Registry API v0.1 and of server.json (schema 2025-12-11: required fields,
// patterns, lengths, enums), written out as a JSON Schema (draft-07) to hold every answer to, with Ajv. Stricter
// than the published schema in one way: no property the format does not define, so nothing of ours leaks into it.
import { Ajv, type ValidateFunction } from 'ajv';
import ajvFormats from 'ajv-formats';

const inputProperties = {
  description: { type: 'string' },
  isRequired: { type: 'boolean' },
  isSecret: { type: 'boolean' },
  format: { enum: ['string', 'number', 'boolean', 'filepath'] },
  default: { type: 'string' },
  value: { type: 'string' },
  placeholder: { type: 'string' },
  choices: { type: 'array', items: { type: 'string' } },
};
const withVariables = {
  ...inputProperties,
  variables: { type: 'object', additionalProperties: { $ref: '#/definitions/Input' } },
};
const transportUrl = { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' };
const headers = { type: 'array', items: { $ref: '#/definitions/KeyValueInput' } };
const dateTime = { type: 'string', format: 'date-time' };

const definitions = {
  Input: { type: 'object', properties: inputProperties, additionalProperties: false },
  KeyValueInput: {
    type: 'object',
    required: ['name'],
    properties: { ...withVariables, name: { type: 'string' } },
    additionalProperties: false,
  },
  Argument: {
    anyOf: [
      {
        type: 'object',
        required: ['type'],
        anyOf: [{ required: ['valueHint'] }, { required: ['value'] }],
        properties: {
          ...withVariables,
          type: { enum: ['positional'] },
          valueHint: { type: 'string' },
          isRepeated: { type: 'boolean' },
        },
        additionalProperties: false,
      },
      {
        type: 'object',
        required: ['type', 'name'],
        properties: {
          ...withVariables,
          type: { enum: ['named'] },
          name: { type: 'string' },
          isRepeated: { type: 'boolean' },
        },
        additionalProperties: false,
      },
    ],
  },
  LocalTransport: {
    anyOf: [
      { type: 'object', required: ['type'], properties: { type: { enum: ['stdio'] } }, additionalProperties: false },
      {
        type: 'object',
        required: ['type', 'url'],
        properties: { type: { enum: ['streamable-http', 'sse'] }, url: transportUrl, headers },
        additionalProperties: false,
      },
    ],
  },
  Remote: {
    type: 'object',
    required: ['type', 'url'],
    properties: {
      type: { enum: ['streamable-http', 'sse'] },
      url: transportUrl,
      headers,
      variables: { type: 'object', additionalProperties: { $ref: '#/definitions/Input' } },
    },
    additionalProperties: false,
  },
  Package: {
    type: 'object',
    required: ['registryType', 'identifier', 'transport'],
    properties: {
      registryType: { enum: ['npm', 'pypi', 'nuget', 'oci', 'mcpb'] },
      registryBaseUrl: { type: 'string', format: 'uri' },
      identifier: { type: 'string', minLength: 1 },
      version: { type: 'string', minLength: 1, not: { const: 'latest' } },
      fileSha256: { type: 'string', pattern: '^[a-f0-9]{64}$' },
      runtimeHint: { type: 'string' },
      transport: { $ref: '#/definitions/LocalTransport' },
      runtimeArguments: { type: 'array', items: { $ref: '#/definitions/Argument' } },
      packageArguments: { type: 'array', items: { $ref: '#/definitions/Argument' } },
      environmentVariables: { type: 'array', items: { $ref: '#/definitions/KeyValueInput' } },
    },
    additionalProperties: false,
  },
  Icon: {
    type: 'object',
    required: ['src'],
    properties: {
      src: { type: 'string', format: 'uri', pattern: '^https://', maxLength: 255 },
      mimeType: { enum: ['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp'] },
      sizes: { type: 'array', items: { type: 'string', pattern: '^(\\d+x\\d+|any)$' } },
      theme: { enum: ['light', 'dark'] },
    },
    additionalProperties: false,
  },
  ServerDetail: {
    type: 'object',
    required: ['name', 'description', 'version'],
    properties: {
      $schema: { type: 'string', format: 'uri' },
      name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
      description: { type: 'string', minLength: 1, maxLength: 100 },
      title: { type: 'string', minLength: 1, maxLength: 100 },
      version: { type: 'string', minLength: 1, maxLength: 255 },
      repository: {
        type: 'object',
        required: ['url', 'source'],
        properties: {
          url: { type: 'string', format: 'uri' },
          source: { type: 'string' },
          id: { type: 'string' },
          subfolder: { type: 'string' },
        },
        additionalProperties: false,
      },
      websiteUrl: { type: 'string', format: 'uri' },
      icons: { type: 'array', items: { $ref: '#/definitions/Icon' } },
      packages: { type: 'array', items: { $ref: '#/definitions/Package' } },
      remotes: { type: 'array', items: { $ref: '#/definitions/Remote' } },
      _meta: { type: 'object' },
    },
    additionalProperties: false,
  },
  ServerResponse: {
    type: 'object',
    required: ['server', '_meta'],
    properties: {
      server: { $ref: '#/definitions/ServerDetail' },
      _meta: {
        type: 'object',
        required: ['io.modelcontextprotocol.registry/official'],
        properties: {
          'io.modelcontextprotocol.registry/official': {
            type: 'object',
            required: ['status', 'publishedAt', 'updatedAt', 'isLatest'],
            properties: {
              status: { enum: ['active', 'deprecated', 'deleted'] },
              statusMessage: { type: 'string', maxLength: 500 },
              statusChangedAt: dateTime,
              publishedAt: dateTime,
              updatedAt: dateTime,
              isLatest: { type: 'boolean' },
            },
            additionalProperties: false,
          },
        },
      },
    },
    additionalProperties: false,
  },
  ServerList: {
    type: 'object',
    required: ['servers', 'metadata'],
    properties: {
      servers: { type: 'array', items: { $ref: '#/definitions/ServerResponse' } },
      metadata: {
        type: 'object',
        required: ['count'],
        properties: { nextCursor: { type: 'string', minLength: 1 }, count: { type: 'integer', minimum: 0 } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  Error: {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'string', minLength: 1 } },
    additionalProperties: false,
  },
};

// The published schema's own `anyOf: [{required: [valueHint]}, {required: [value]}]` names no property there.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
ajvFormats.default(ajv);
ajv.addSchema({ $id: 'registry', definitions });

const compiled = new Map<string, ValidateFunction>();

/** The Ajv errors of `value` against one definition (empty when it conforms), readable in a failed expectation. */
export function violations(definition: keyof typeof definitions, value: unknown): string[] {
  let validate = compiled.get(definition);
  if (!validate) {
    validate = ajv.getSchema(`registry#/definitions/${definition}`) as ValidateFunction;
    compiled.set(definition, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
}
