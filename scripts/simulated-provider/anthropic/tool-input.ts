// Builds a tool call's `input` deterministically from the tool's JSON schema: every required property gets the
// first of its `const`, `default`, `enum[0]`, `examples[0]`, or a plain value of its type.

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  examples?: unknown[];
  minimum?: number;
  maximum?: number;
  minItems?: number;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

const MAX_DEPTH = 6;

function stringFor(name: string, schema: JsonSchema): string {
  switch (schema.format) {
    case 'date':
      return '2025-01-01';
    case 'date-time':
      return '2025-01-01T00:00:00Z';
    case 'email':
      return 'someone@example.com';
    case 'uri':
    case 'url':
      return 'https://example.com/';
    default:
      return `simulated ${name}`;
  }
}

/** 1, moved into [minimum, maximum] when the schema sets them. */
function numberWithin(schema: JsonSchema): number {
  return Math.min(Math.max(1, schema.minimum ?? 1), schema.maximum ?? Number.POSITIVE_INFINITY);
}

export function valueFor(name: string, schema: JsonSchema, depth = 0): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.examples?.length) return schema.examples[0];
  const variant = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (variant) return valueFor(name, variant, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return stringFor(name, schema);
    case 'integer':
      return Math.ceil(numberWithin(schema));
    case 'number':
      return numberWithin(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(1, schema.minItems ?? 1);
      return depth >= MAX_DEPTH
        ? []
        : Array.from({ length: count }, () => valueFor(name, schema.items ?? {}, depth + 1));
    }
    case 'object':
      return depth >= MAX_DEPTH ? {} : objectFor(schema, depth + 1);
    default:
      return schema.properties ? objectFor(schema, depth + 1) : `simulated ${name}`;
  }
}

function objectFor(schema: JsonSchema, depth: number): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of schema.required ?? []) input[key] = valueFor(key, schema.properties?.[key] ?? {}, depth);
  return input;
}

/** The `input` of a simulated call to a tool with this `input_schema`. */
export function toolInputFor(inputSchema: unknown): Record<string, unknown> {
  if (!inputSchema || typeof inputSchema !== 'object') return {};
  return objectFor(inputSchema as JsonSchema, 0);
}
