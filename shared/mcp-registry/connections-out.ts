// A version's connections as server.json `packages` (stdio connections started with npx, uvx or docker) and
// `remotes` (streamable-http and SSE connections). Config fields become environment variables of the packages, and
// inputs of the headers, URLs and arguments that name them as `${NAME}` (the registry writes `{NAME}`).
import semver from 'semver';
import type { McpPayload } from '../catalog/version-payloads.js';
import type { Input, KeyValueInput, PositionalArgument, RegistryPackage, RegistryRemote } from './server-json.js';

type Connection = McpPayload['connections'][number];
type ConfigField = McpPayload['configFields'][number];
type Fields = ReadonlyMap<string, ConfigField>;

export function inputOf(field: ConfigField): Input {
  const description = [field.label, field.description].filter(Boolean).join(': ');
  return {
    ...(description ? { description } : {}),
    isRequired: field.required,
    isSecret: field.type === 'secret',
    format: field.type === 'number' || field.type === 'boolean' ? field.type : 'string',
    ...(field.default !== undefined ? { default: String(field.default) } : {}),
  };
}

/**
 * A `${…}` that names no setting: a value the person is asked for, never a reference left for the client. VS Code
 * resolves `${env:…}` and `${command:…}` in its configuration, so a published header such as `Bearer ${env:TOKEN}`
 * would send the person's own secret to the publisher's server (security review #103).
 */
const unsettledInput: Input = {
  description: 'Not a setting of this server: ask its publisher what goes here.',
  isRequired: true,
  isSecret: false,
  format: 'string',
};

/**
 * `${NAME}` of a config field becomes the registry's `{NAME}` with that field in `variables` (any other `${NAME}` too,
 * as a value to ask for: `unsettledInput`). A scan with indexOf,
 * not /\$\{([^}]+)\}/g: the pattern reads to the end of the text from every `${` that no `}` closes, quadratic in
 * the text, and this runs at every registry read (a server's stored arguments and headers cost ~0.9 s a read,
 * security review #91). Once no `}` follows, no later `${` can close either.
 */
function templated(text: string, fields: Fields): Input & { value: string } {
  // A Map, then Object.fromEntries (own properties): assigned into a plain object, `${__proto__}` set the object's
  // prototype and its variable was lost from the answer (security review #153).
  const variables = new Map<string, Input>();
  let value = '';
  let copied = 0;
  for (let open = text.indexOf('${'); open >= 0; ) {
    const close = text.indexOf('}', open + 2);
    if (close < 0) break;
    const name = text.slice(open + 2, close);
    if (name) {
      const field = fields.get(name);
      variables.set(name, field ? inputOf(field) : unsettledInput);
      value += `${text.slice(copied, open)}{${name}}`;
      copied = close + 1;
    }
    open = text.indexOf('${', name ? close + 1 : open + 1);
  }
  value += text.slice(copied);
  return { value, ...(variables.size > 0 ? { variables: Object.fromEntries(variables) } : {}) };
}

const positional = (tokens: string[], fields: Fields): PositionalArgument[] =>
  tokens.map((token) => ({ type: 'positional', ...templated(token, fields) }));

/** A header or variable whose whole value is one config field is that field's input; any other value is fixed. */
function keyValue(name: string, value: string, fields: Fields): KeyValueInput {
  const only = /^\$\{([^}]+)\}$/.exec(value.trim())?.[1];
  const field = only === undefined ? undefined : fields.get(only);
  return field ? { name, ...inputOf(field) } : { name, ...templated(value, fields) };
}

type CommandLine = { identifier: string; version?: string; runtimeArgs: string[]; packageArgs: string[] };

/** `npx [-y] [flags] <package>[@<version>] [args]`; `-p`/`--package` (a bin from another package) is not read. */
function npxLine(args: string[]): CommandLine | undefined {
  const runtimeArgs: string[] = [];
  let at = 0;
  for (; at < args.length && (args[at] as string).startsWith('-'); at++) {
    const flag = args[at] as string;
    if (/^(-p|--package)(=|$)/.test(flag) || flag === '-c' || flag === '--call') return undefined;
    if (flag !== '-y' && flag !== '--yes') runtimeArgs.push(flag);
  }
  const spec = args[at];
  if (!spec) return undefined;
  const split = spec.lastIndexOf('@');
  const [identifier, version] = split > 0 ? [spec.slice(0, split), spec.slice(split + 1)] : [spec, undefined];
  return {
    identifier,
    // Only an exact version is the package's version; a range or a tag such as `latest` is left out.
    version: version && semver.valid(version) === version ? version : undefined,
    runtimeArgs,
    packageArgs: args.slice(at + 1),
  };
}

/** `uvx [flags] <package>[==|@<version>] [args]`; `--from` (a command of another package) is not read. */
function uvxLine(args: string[]): CommandLine | undefined {
  const runtimeArgs: string[] = [];
  let at = 0;
  for (; at < args.length && (args[at] as string).startsWith('-'); at++) {
    const flag = args[at] as string;
    if (/^--from(=|$)/.test(flag)) return undefined;
    runtimeArgs.push(flag);
    if (/^(--with|--python|-p|--index-url|--extra-index-url)$/.test(flag) && args[at + 1] !== undefined) {
      runtimeArgs.push(args[++at] as string);
    }
  }
  const spec = args[at];
  if (!spec) return undefined;
  // The version is a digit and then version characters: `\d+(?:\.\d+)*[A-Za-z0-9.+-]*` said the same with overlapping
  // parts, which backtrack quadratically over a long `1.1.1…!` (#91).
  const match = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:(?:==|@)(\d[A-Za-z0-9.+-]*))?$/.exec(spec);
  if (!match) return undefined;
  return { identifier: match[1] as string, version: match[2], runtimeArgs, packageArgs: args.slice(at + 1) };
}

/** Flags of `docker run` followed by a value. */
const dockerValueFlags = new Set([
  ...['-e', '--env', '--env-file', '-v', '--volume', '-p', '--publish', '--name', '--network', '--net', '-w'],
  ...['--workdir', '-u', '--user', '--mount', '--entrypoint', '--platform', '-l', '--label', '--add-host'],
  ...['-m', '--memory', '--cpus', '--device', '--cap-add', '--cap-drop', '--restart', '-h', '--hostname'],
  ...['--pull', '--tmpfs', '--shm-size', '--security-opt', '--ulimit'],
]);
/** What a client adds itself (`run -i --rm`, and `-e NAME` from the environment variables). */
const dockerDefaults = new Set(['-i', '--interactive', '--rm', '-it', '-t', '--tty']);

/** `docker run [flags] <image>[:tag][@digest] [args]`: the image reference is the OCI identifier, as written. */
function dockerLine(args: string[]): CommandLine | undefined {
  if (args[0] !== 'run') return undefined;
  const runtimeArgs: string[] = [];
  let at = 1;
  for (; at < args.length && (args[at] as string).startsWith('-'); at++) {
    const flag = args[at] as string;
    const takesValue = dockerValueFlags.has(flag);
    const value = takesValue ? args[++at] : undefined;
    if (takesValue && value === undefined) return undefined;
    if (flag === '-e' || flag === '--env' || /^(-e|--env)=/.test(flag) || dockerDefaults.has(flag)) continue;
    runtimeArgs.push(flag, ...(value === undefined ? [] : [value]));
  }
  const image = args[at];
  return image ? { identifier: image, runtimeArgs, packageArgs: args.slice(at + 1) } : undefined;
}

const runtimes = {
  npx: { registryType: 'npm', read: npxLine },
  uvx: { registryType: 'pypi', read: uvxLine },
  docker: { registryType: 'oci', read: dockerLine },
} as const;

/** `npx`, `/usr/local/bin/npx`, `npx.cmd` are all npx. */
const commandName = (command: string) =>
  command
    .split(/[\\/]/)
    .pop()
    ?.replace(/\.(cmd|exe)$/i, '') ?? '';

function packageOf(connection: Connection, fields: Fields): RegistryPackage | undefined {
  if (connection.transport !== 'stdio' || !connection.command) return undefined;
  const hint = commandName(connection.command);
  const runtime = runtimes[hint as keyof typeof runtimes];
  const line = runtime?.read(connection.args ?? []);
  if (!runtime || !line) return undefined;
  const environment = [
    ...[...fields.values()].map((f) => ({ name: f.name, ...inputOf(f) })),
    ...Object.entries(connection.env ?? {})
      .filter(([name]) => !fields.has(name))
      .map(([name, value]) => keyValue(name, value, fields)),
  ];
  return {
    registryType: runtime.registryType,
    identifier: line.identifier,
    ...(line.version ? { version: line.version } : {}),
    runtimeHint: hint,
    transport: { type: 'stdio' },
    ...(line.runtimeArgs.length > 0 ? { runtimeArguments: positional(line.runtimeArgs, fields) } : {}),
    ...(line.packageArgs.length > 0 ? { packageArguments: positional(line.packageArgs, fields) } : {}),
    ...(environment.length > 0 ? { environmentVariables: environment } : {}),
  };
}

const fieldMap = (fields: ConfigField[]): Fields => new Map(fields.map((f) => [f.name, f]));

/**
 * Whether a client would resolve a `${…}` in `text`: a `${` with something before a `}` that follows it. `templated`
 * leaves none of its own (only `${}` and a `${` no `}` follows), but a `$` before a placeholder (`$${env:X}` →
 * `${env:X}`), a placeholder inside an unclosed `${` (`${a${env:X}` → `{a${env:X}`) and names and identifiers, which
 * are written as published, can carry one. Linear: one `lastIndexOf`, then each `${` once.
 */
function holdsReference(text: string): boolean {
  const last = text.lastIndexOf('}');
  for (let at = text.indexOf('${'); at >= 0 && at + 2 < last; at = text.indexOf('${', at + 2)) {
    if (text[at + 2] !== '}') return true;
  }
  return false;
}

const argumentTexts = (args: PositionalArgument[] | undefined) => (args ?? []).map((a) => a.value ?? '');
const keyValueTexts = (list: KeyValueInput[] | undefined) => (list ?? []).flatMap((kv) => [kv.name, kv.value ?? '']);

/**
 * A package or remote only when no text VS Code takes from it holds a reference: its gallery writes the identifier
 * and arguments into `args` (a docker package's variable names too), names as keys of `env` and `headers`, the URL as
 * it is, and resolves `${env:…}` (the person's environment) and `${command:…}` (runs it) in every key and value at
 * launch. A server so published is left out of the registry rather than rewritten (security review #132); its hub
 * page still shows it, with `<…>` to replace.
 */
function inert(entry: RegistryPackage | RegistryRemote): boolean {
  const texts =
    'identifier' in entry
      ? [
          entry.identifier,
          entry.version ?? '',
          ...argumentTexts(entry.runtimeArguments),
          ...argumentTexts(entry.packageArguments),
          ...keyValueTexts(entry.environmentVariables),
        ]
      : [entry.url, ...keyValueTexts(entry.headers)];
  return !texts.some(holdsReference);
}

export function packagesOf(connections: Connection[], configFields: ConfigField[]): RegistryPackage[] {
  const fields = fieldMap(configFields);
  const seen = new Set<string>();
  return connections.flatMap((connection) => {
    const pkg = packageOf(connection, fields);
    const key = pkg && `${pkg.registryType} ${pkg.identifier} ${pkg.version ?? ''}`;
    if (!pkg || !key || seen.has(key) || !inert(pkg)) return [];
    seen.add(key);
    return [pkg];
  });
}

export function remotesOf(connections: Connection[], configFields: ConfigField[]): RegistryRemote[] {
  const fields = fieldMap(configFields);
  return connections.flatMap((connection): RegistryRemote[] => {
    if (connection.transport === 'stdio' || !connection.url) return [];
    const { value: url, variables } = templated(connection.url, fields);
    const headers = Object.entries(connection.headers ?? {}).map(([name, value]) => keyValue(name, value, fields));
    const remote: RegistryRemote = {
      type: connection.transport,
      url,
      ...(headers.length > 0 ? { headers } : {}),
      ...(variables ? { variables } : {}),
    };
    return inert(remote) ? [remote] : [];
  });
}
