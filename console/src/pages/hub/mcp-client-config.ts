// An MCP version's published connections as the `mcpServers` configuration Claude Desktop and Cursor read: a stdio
// connection is its command, arguments and environment; a streamable-http or SSE connection is its URL and headers.
// Settings (config fields) follow the MCP Registry mapping (shared/mcp-registry/connections-out.ts): each becomes an
// environment variable of a stdio server, and `${NAME}` in an argument, URL, header or variable names one. Where the
// person must fill a value in, the snippet holds `<NAME>`; a setting's default stands in when it is not a secret.

export type ConfigField = { name: string; type?: string; required?: boolean; default?: unknown };

type Connection = {
  transport?: unknown;
  command?: unknown;
  args?: unknown;
  url?: unknown;
  env?: unknown;
  headers?: unknown;
};

export type ClientConfig = {
  /** `stdio` (run locally) or the remote transport. */
  transport: string;
  /** The command a stdio server runs (`npx`, `uvx`, `docker`, …); absent for a remote one. */
  command?: string;
  /** The whole `{"mcpServers": {…}}` document, formatted. */
  json: string;
};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const record = (value: unknown): [string, string][] =>
  value && typeof value === 'object'
    ? Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')
    : [];

function placeholder(field: ConfigField | undefined, name: string): string {
  const usable = field && field.type !== 'secret' && field.default !== undefined && field.default !== '';
  return usable ? String(field.default) : `<${name}>`;
}

/** `${NAME}` of a setting becomes its placeholder; any other `${…}` is left as written. Linear: one split. */
function filled(text: string, fields: ReadonlyMap<string, ConfigField>): string {
  const [head, ...rest] = text.split('${');
  return rest.reduce((out, part) => {
    const close = part.indexOf('}');
    const field = close > 0 ? fields.get(part.slice(0, close)) : undefined;
    return field ? out + placeholder(field, field.name) + part.slice(close + 1) : `${out}\${${part}`;
  }, head ?? '');
}

function serverOf(connection: Connection, fields: ReadonlyMap<string, ConfigField>): Record<string, unknown> | null {
  const fill = (text: string) => filled(text, fields);
  if (connection.transport === 'stdio') {
    if (typeof connection.command !== 'string') return null;
    const env = Object.fromEntries(record(connection.env).map(([name, value]) => [name, fill(value)]));
    for (const field of fields.values()) {
      if (!(field.name in env)) env[field.name] = placeholder(field, field.name);
    }
    const args = strings(connection.args).map(fill);
    return {
      command: connection.command,
      ...(args.length > 0 ? { args } : {}),
      ...(Object.keys(env).length > 0 ? { env } : {}),
    };
  }
  if (typeof connection.url !== 'string') return null;
  const headers = Object.fromEntries(record(connection.headers).map(([name, value]) => [name, fill(value)]));
  return { url: fill(connection.url), ...(Object.keys(headers).length > 0 ? { headers } : {}) };
}

/** One configuration per usable connection, in the publisher's order; `name` is the key under `mcpServers`. */
export function clientConfigs(name: string, connections: unknown, configFields: unknown): ClientConfig[] {
  const fields = new Map(
    (Array.isArray(configFields) ? (configFields as ConfigField[]) : [])
      .filter((f) => typeof f?.name === 'string')
      .map((f) => [f.name, f]),
  );
  const list = Array.isArray(connections) ? (connections as Connection[]) : [];
  return list.flatMap((connection) => {
    const server = serverOf(connection, fields);
    if (!server) return [];
    return [
      {
        transport: String(connection.transport),
        ...(typeof server.command === 'string' ? { command: server.command } : {}),
        json: JSON.stringify({ mcpServers: { [name]: server } }, null, 2),
      },
    ];
  });
}
