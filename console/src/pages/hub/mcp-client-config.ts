// An MCP version's published connections as each client's install snippet: the `mcpServers` configuration Claude
// Desktop and Cursor read, VS Code's `mcp.json` (`servers`, with `inputs` for secrets) and Claude Code's
// `claude mcp add` command line. A stdio connection is its command, arguments and environment; a streamable-http or
// SSE connection is its URL and headers. Settings (config fields) follow the MCP Registry mapping
// (shared/mcp-registry/connections-out.ts): each becomes an environment variable of a stdio server, and `${NAME}` in
// an argument, URL, header or variable names one. Where the person must fill a value in, the snippet holds `<NAME>`;
// a setting's default stands in when it is not a secret; VS Code asks for a secret itself (`${input:NAME}`).

export type ConfigField = {
  name: string;
  label?: string;
  description?: string;
  type?: string;
  required?: boolean;
  default?: unknown;
};

type Connection = {
  transport?: unknown;
  command?: unknown;
  args?: unknown;
  url?: unknown;
  env?: unknown;
  headers?: unknown;
};

/** The client forms offered, in the order the panel shows them. */
export const mcpClients = ['mcp-servers', 'vscode', 'claude-code'] as const;
export type McpClient = (typeof mcpClients)[number];

export type ClientSnippet = {
  /** The text to copy: a formatted JSON document, or a shell command line. */
  text: string;
  /** Settings the person replaces by hand, shown as `<NAME>` in the text. */
  toReplace: string[];
  /** Settings the client asks for itself when it starts the server (VS Code's `inputs`). */
  asked: string[];
};

export type ClientConfig = {
  /** `stdio` (run locally) or the remote transport. */
  transport: string;
  /** The command a stdio server runs (`npx`, `uvx`, `docker`, …); absent for a remote one. */
  command?: string;
  snippets: Record<McpClient, ClientSnippet>;
};

type Server =
  | { kind: 'stdio'; command: string; args: string[]; env: [string, string][] }
  | { kind: 'remote'; transport: string; url: string; headers: [string, string][] };

/** How one client writes a setting's value: a placeholder, a default, or a reference the client resolves. */
type Render = (field: ConfigField) => string;

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

const record = (value: unknown): [string, string][] =>
  value && typeof value === 'object'
    ? Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')
    : [];

/** A default that holds a `${` is not written in for the person: a client could resolve it (#132). */
const hasDefault = (field: ConfigField) =>
  field.type !== 'secret' &&
  field.default !== undefined &&
  field.default !== '' &&
  !String(field.default).includes('${');

/**
 * `${NAME}` of a setting becomes what `render` makes of it. A `${…}` that names no setting becomes a placeholder the
 * person replaces too, never a reference left for the client: VS Code resolves `${env:…}` and `${command:…}` in its
 * configuration and Claude Code expands `${VAR}`, so a published header such as `Bearer ${env:GITHUB_TOKEN}` would
 * send the person's own secret to the publisher's server. Linear: one split.
 */
function filled(text: string, fields: ReadonlyMap<string, ConfigField>, render: Render): string {
  const [head, ...rest] = text.split('${');
  return rest.reduce((out, part) => {
    const close = part.indexOf('}');
    if (close <= 0) return `${out}\${${part}`;
    const name = part.slice(0, close);
    return out + render(fields.get(name) ?? { name }) + part.slice(close + 1);
  }, head ?? '');
}

/** A setting's name as a placeholder shows it: each `${X}` in it as `X`, so `<NAME>` never holds a reference. */
const bare = (name: string) => filled(name, new Map(), (field) => field.name);

/**
 * Every text of a connection is filled, names and the command too: VS Code resolves references in the keys of
 * `env` and `headers` as in their values, so a header named `X-${env:GITHUB_TOKEN}` sent the person's token to the
 * publisher's server (security review #132).
 */
function serverOf(connection: Connection, fields: ReadonlyMap<string, ConfigField>, render: Render): Server | null {
  const fill = (text: string) => filled(text, fields, render);
  const filledPairs = (value: unknown) =>
    record(value).map(([name, text]): [string, string] => [fill(name), fill(text)]);
  if (connection.transport === 'stdio') {
    if (typeof connection.command !== 'string') return null;
    const named = new Set(record(connection.env).map(([name]) => name));
    const env = filledPairs(connection.env);
    for (const field of fields.values()) {
      if (!named.has(field.name)) env.push([fill(field.name), render(field)]);
    }
    return { kind: 'stdio', command: fill(connection.command), args: strings(connection.args).map(fill), env };
  }
  if (typeof connection.url !== 'string') return null;
  const headers = filledPairs(connection.headers);
  return { kind: 'remote', transport: String(connection.transport), url: fill(connection.url), headers };
}

const pairs = (list: [string, string][]) => (list.length > 0 ? Object.fromEntries(list) : undefined);

/** The server object of a JSON configuration; `type` only where the client reads it (VS Code). */
function serverJson(server: Server, type?: string): Record<string, unknown> {
  if (server.kind === 'stdio') {
    return {
      ...(type ? { type } : {}),
      command: server.command,
      ...(server.args.length > 0 ? { args: server.args } : {}),
      ...(server.env.length > 0 ? { env: pairs(server.env) } : {}),
    };
  }
  return {
    ...(type ? { type } : {}),
    url: server.url,
    ...(server.headers.length > 0 ? { headers: pairs(server.headers) } : {}),
  };
}

/** Characters a POSIX shell never treats specially inside a word; anything else is single-quoted. */
const plainWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One shell word that stands for exactly `text`: inside single quotes nothing is special (no `$`, backquote,
 * backslash or newline), and a `'` closes the quotes, adds an escaped `'` and opens them again.
 */
export function shellWord(text: string): string {
  return plainWord.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Claude Code's transport names: `http` for streamable HTTP, `sse`, `stdio`. */
const claudeTransport = (transport: string) => (transport === 'sse' ? 'sse' : 'http');

/**
 * `claude mcp add` with one option or argument group per line. The name comes before `-e`: `-e` takes several values
 * and, placed first, swallows the name (Claude Code issue #46121).
 */
function claudeCodeCommand(name: string, server: Server): string {
  const lines =
    server.kind === 'stdio'
      ? [
          `claude mcp add ${shellWord(name)}`,
          ...server.env.map(([key, value]) => `-e ${shellWord(key)}=${shellWord(value)}`),
          ['--', server.command, ...server.args].map((w, i) => (i === 0 ? w : shellWord(w))).join(' '),
        ]
      : [
          `claude mcp add --transport ${claudeTransport(server.transport)} ${shellWord(name)} ${shellWord(server.url)}`,
          ...server.headers.map(([key, value]) => `--header ${shellWord(`${key}: ${value}`)}`),
        ];
  return lines.join(' \\\n  ');
}

/** An id for VS Code's `${input:…}`: the setting's name, with anything that would end the reference replaced. */
const inputIdOf = (name: string) => name.replace(/[^A-Za-z0-9_.-]/g, '-');

/**
 * Renders settings for one client and remembers which ones the person fills in or the client asks for. Two secrets
 * whose names differ only where an input id cannot (`API KEY`, `API-KEY`) get ids of their own (`API-KEY-2`), else
 * VS Code would ask once and give both the same answer.
 */
function renderer(kind: 'placeholder' | 'vscode') {
  const toReplace = new Set<string>();
  const asked = new Map<string, { field: ConfigField; id: string }>();
  const ids = new Set<string>();
  const inputId = (name: string) => {
    const base = inputIdOf(name);
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}-${n}`;
    ids.add(id);
    return id;
  };
  const render: Render = (field) => {
    if (kind === 'vscode' && field.type === 'secret') {
      const input = asked.get(field.name) ?? { field, id: inputId(field.name) };
      asked.set(field.name, input);
      return `\${input:${input.id}}`;
    }
    if (hasDefault(field)) return String(field.default);
    toReplace.add(bare(field.name));
    return `<${bare(field.name)}>`;
  };
  return { render, toReplace, asked };
}

function vscodeInputs(asked: ReadonlyMap<string, { field: ConfigField; id: string }>) {
  return [...asked.values()].map(({ field, id }) => ({
    type: 'promptString',
    id,
    description: field.label || field.description || field.name,
    password: true,
  }));
}

function snippetsOf(name: string, connection: Connection, fields: ReadonlyMap<string, ConfigField>) {
  const plain = renderer('placeholder');
  const server = serverOf(connection, fields, plain.render);
  if (!server) return null;
  const vscode = renderer('vscode');
  const vsServer = serverOf(connection, fields, vscode.render) as Server;
  const inputs = vscodeInputs(vscode.asked);
  const vsType = vsServer.kind === 'stdio' ? 'stdio' : claudeTransport(vsServer.transport);
  const toReplace = [...plain.toReplace];
  return {
    server,
    snippets: {
      'mcp-servers': {
        text: JSON.stringify({ mcpServers: { [name]: serverJson(server) } }, null, 2),
        toReplace,
        asked: [],
      },
      vscode: {
        text: JSON.stringify(
          { ...(inputs.length > 0 ? { inputs } : {}), servers: { [name]: serverJson(vsServer, vsType) } },
          null,
          2,
        ),
        toReplace: [...vscode.toReplace],
        asked: [...vscode.asked.keys()],
      },
      'claude-code': { text: claudeCodeCommand(name, server), toReplace, asked: [] },
    } satisfies Record<McpClient, ClientSnippet>,
  };
}

/** One configuration per usable connection, in the publisher's order; `name` is the server's name in each client. */
export function clientConfigs(name: string, connections: unknown, configFields: unknown): ClientConfig[] {
  const fields = new Map(
    (Array.isArray(configFields) ? (configFields as ConfigField[]) : [])
      .filter((f) => typeof f?.name === 'string')
      .map((f) => [f.name, f]),
  );
  const list = Array.isArray(connections) ? (connections as Connection[]) : [];
  return list.flatMap((connection) => {
    const built = snippetsOf(name, connection, fields);
    if (!built) return [];
    const { server, snippets } = built;
    return [
      {
        transport: String(connection.transport),
        ...(server.kind === 'stdio' ? { command: server.command } : {}),
        snippets,
      },
    ];
  });
}
