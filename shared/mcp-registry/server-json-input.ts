// A server.json a publisher sends to POST /v0.1/publish: its zod schema (the registry's own limits and patterns),
// and its mapping onto a catalog draft (docs/mcp-registry.md, "Publishing"). Parts the catalog cannot hold are
// refused with the reason, never dropped silently.
import { z } from 'zod';
import type { McpPayload } from '../catalog/version-payloads.js';
import { badRequest } from '../errors/app-error.js';
import { displayName } from '../validation/display-name.js';
import { SERVER_SCHEMA_URL } from './server-json.js';
import { SERVER_NAME_PATTERN } from './server-names.js';

const inputFields = {
  description: z.string().max(2000).optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.enum(['string', 'number', 'boolean', 'filepath']).optional(),
  default: z.string().max(1000).optional(),
  value: z.string().max(1024).optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
};
const input = z.looseObject(inputFields);
const variables = z.record(z.string().max(128), input).optional();
const keyValueInput = z.looseObject({ ...inputFields, name: z.string().min(1).max(128), variables });
const argument = z.looseObject({
  ...inputFields,
  type: z.enum(['positional', 'named']),
  name: z.string().min(1).max(256).optional(),
  valueHint: z.string().min(1).max(128).optional(),
  isRepeated: z.boolean().optional(),
  variables,
});
const transport = z.looseObject({ type: z.enum(['stdio', 'streamable-http', 'sse']), url: z.string().optional() });

const serverPackage = z.looseObject({
  registryType: z.string().min(1),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().min(1).max(512),
  version: z
    .string()
    .min(1)
    .max(255)
    .refine((v) => v !== 'latest', 'must be a specific version, not "latest"')
    .optional(),
  fileSha256: z
    .string()
    .regex(/^[a-f0-9]{64}$/)
    .optional(),
  runtimeHint: z.string().optional(),
  transport,
  runtimeArguments: z.array(argument).max(32).optional(),
  packageArguments: z.array(argument).max(32).optional(),
  environmentVariables: z.array(keyValueInput).max(100).optional(),
});

const serverRemote = z.looseObject({
  type: z.enum(['streamable-http', 'sse']),
  url: z.string().regex(/^https?:\/\/\S+$/, 'must be an http:// or https:// URL'),
  headers: z.array(keyValueInput).max(32).optional(),
  variables,
});

/** Like the official registry, the document must say which format it is in, and be in the one we read. */
const schemaUrl = z
  .string({ error: (issue) => (issue.input === undefined ? `required: ${SERVER_SCHEMA_URL}` : undefined) })
  .refine((url) => url === SERVER_SCHEMA_URL, {
    error: (issue) => `${String(issue.input)} is not a format this registry reads; use ${SERVER_SCHEMA_URL}`,
  });

export const serverJsonInput = z.looseObject({
  $schema: schemaUrl,
  name: z
    .string()
    .min(3)
    .max(200)
    .regex(SERVER_NAME_PATTERN, 'must be <reverse-DNS namespace>/<name>, such as com.example/weather'),
  description: z.string().trim().min(1).max(100),
  title: displayName().optional(),
  version: z.string().min(1).max(255),
  repository: z.looseObject({ url: z.string(), source: z.string() }).optional(),
  websiteUrl: z.string().optional(),
  icons: z.array(z.looseObject({ src: z.string().max(255), theme: z.enum(['light', 'dark']).optional() })).optional(),
  packages: z.array(serverPackage).max(16).optional(),
  remotes: z.array(serverRemote).max(16).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

export type ServerJsonInput = z.output<typeof serverJsonInput>;
type Argument = z.output<typeof argument>;
type KeyValueInput = z.output<typeof keyValueInput>;
type Input = z.output<typeof input>;
type Connection = McpPayload['connections'][number];
type ConfigField = McpPayload['configFields'][number];

const unsupported = (message: string) => badRequest('McpRegistry.Unsupported', message);

/** Collects config fields by name (the first one wins), from inputs the registry leaves to the user. */
class FieldCollector {
  readonly fields = new Map<string, ConfigField>();

  add(name: string, from: Input): void {
    if (this.fields.has(name)) return;
    const type = from.isSecret
      ? 'secret'
      : from.format === 'number' || from.format === 'boolean'
        ? from.format
        : 'string';
    this.fields.set(name, {
      name,
      ...(from.description ? { description: from.description } : {}),
      type,
      required: from.isRequired ?? false,
      ...(from.default !== undefined ? { default: from.default } : {}),
    });
  }

  /** The registry's `{NAME}` (a variable it defines) becomes our `${NAME}`, and the variable a config field. */
  template(value: string, vars: Record<string, Input> | undefined): string {
    for (const [name, variable] of Object.entries(vars ?? {})) this.add(name, variable);
    return value.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) =>
      vars && name in vars ? `\${${name}}` : whole,
    );
  }

  /** A value given is kept (templated); an input without one becomes a config field and `${NAME}`. */
  keyValue(kv: KeyValueInput): string {
    if (kv.value !== undefined) return this.template(kv.value, kv.variables);
    this.add(kv.name, kv);
    return `\${${kv.name}}`;
  }

  argumentTokens(arg: Argument): string[] {
    const value =
      arg.value !== undefined
        ? this.template(arg.value, arg.variables)
        : arg.type === 'positional' && arg.valueHint
          ? this.keyValue({ ...arg, name: arg.valueHint })
          : undefined;
    if (arg.type === 'named') {
      if (!arg.name) throw badRequest('McpRegistry.Invalid', 'A named argument needs its name.');
      return value === undefined ? [arg.name] : [arg.name, value];
    }
    if (value === undefined)
      throw badRequest('McpRegistry.Invalid', 'A positional argument needs a value or valueHint.');
    return [value];
  }
}

const specOf = (identifier: string, version: string | undefined) => (version ? `${identifier}@${version}` : identifier);

function packageConnection(pkg: z.output<typeof serverPackage>, at: number, fields: FieldCollector): Connection {
  if (pkg.transport.type !== 'stdio') {
    throw unsupported(`packages.${at}.transport: a package served over ${pkg.transport.type} cannot be stored here.`);
  }
  const runtimeArgs = (pkg.runtimeArguments ?? []).flatMap((a) => fields.argumentTokens(a));
  const packageArgs = (pkg.packageArguments ?? []).flatMap((a) => fields.argumentTokens(a));
  const env: Record<string, string> = {};
  for (const kv of pkg.environmentVariables ?? []) {
    const value = fields.keyValue(kv);
    if (kv.value !== undefined) env[kv.name] = value;
  }
  const envNames = (pkg.environmentVariables ?? []).map((kv) => kv.name);
  const withEnv = Object.keys(env).length > 0 ? { env } : {};
  switch (pkg.registryType) {
    case 'npm':
      return {
        transport: 'stdio',
        command: 'npx',
        args: ['-y', ...runtimeArgs, specOf(pkg.identifier, pkg.version), ...packageArgs],
        ...withEnv,
      };
    case 'pypi':
      return {
        transport: 'stdio',
        command: 'uvx',
        args: [...runtimeArgs, specOf(pkg.identifier, pkg.version), ...packageArgs],
        ...withEnv,
      };
    case 'oci':
      return {
        transport: 'stdio',
        command: 'docker',
        args: [
          'run',
          '-i',
          '--rm',
          ...envNames.flatMap((n) => ['-e', n]),
          ...runtimeArgs,
          pkg.identifier,
          ...packageArgs,
        ],
        ...withEnv,
      };
    default:
      throw unsupported(
        `packages.${at}.registryType: "${pkg.registryType}" packages cannot be stored here (npm, pypi and oci can).`,
      );
  }
}

function remoteConnection(remote: z.output<typeof serverRemote>, fields: FieldCollector): Connection {
  const headers = Object.fromEntries((remote.headers ?? []).map((kv) => [kv.name, fields.keyValue(kv)]));
  return {
    transport: remote.type,
    url: fields.template(remote.url, remote.variables),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
  };
}

/** The first icon meant for any or a light background. */
const iconOf = (icons: ServerJsonInput['icons']) => (icons?.find((i) => i.theme !== 'dark') ?? icons?.[0])?.src;

/** The catalog's view of a server.json: item metadata and the version's fields (validated by the catalog next). */
export function draftFromServerJson(server: ServerJsonInput) {
  const fields = new FieldCollector();
  const connections = [
    ...(server.remotes ?? []).map((r) => remoteConnection(r, fields)),
    ...(server.packages ?? []).map((p, at) => packageConnection(p, at, fields)),
  ];
  const sourceUrl = server.repository?.url ?? server.websiteUrl;
  const iconUrl = iconOf(server.icons);
  return {
    title: server.title,
    summary: server.description.replace(/\s+/g, ' '),
    iconUrl,
    version: {
      version: server.version,
      ...(sourceUrl ? { sourceUrl } : {}),
      connections,
      configFields: [...fields.fields.values()],
    },
  };
}
