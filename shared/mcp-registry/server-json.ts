// The server.json document of the MCP Registry (schema 2025-12-11, served by the v0.1 API) as we write it, and the
// mapping of a catalog item and one of its versions onto it. What the format cannot say is left out, never made up.
import type { McpPayload } from '../catalog/version-payloads.js';
import { trimTrailing } from '../text/trim-trailing.js';
import { packagesOf, remotesOf } from './connections-out.js';

export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

export type Input = {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  default?: string;
  value?: string;
  variables?: Record<string, Input>;
};
export type KeyValueInput = Input & { name: string };
export type PositionalArgument = Input & { type: 'positional'; value: string };
export type RegistryPackage = {
  registryType: 'npm' | 'pypi' | 'oci';
  identifier: string;
  version?: string;
  runtimeHint: string;
  transport: { type: 'stdio' };
  runtimeArguments?: PositionalArgument[];
  packageArguments?: PositionalArgument[];
  environmentVariables?: KeyValueInput[];
};
export type RegistryRemote = {
  type: 'streamable-http' | 'sse';
  url: string;
  headers?: KeyValueInput[];
  variables?: Record<string, Input>;
};
export type ServerJson = {
  $schema: string;
  name: string;
  description: string;
  title?: string;
  version: string;
  repository?: { url: string; source: string };
  websiteUrl?: string;
  icons?: { src: string }[];
  packages?: RegistryPackage[];
  remotes?: RegistryRemote[];
};

/** What the mapping reads of an item and one version. */
export type ServerSource = {
  name: string;
  title: string;
  summary: string;
  version: string;
  sourceUrl: string | null;
  iconUrl: string | null;
  payload: Record<string, unknown> | null;
};

const DESCRIPTION_MAX = 100;

/** The summary in at most 100 characters: whole words, and an ellipsis when something was cut. */
export function shortDescription(summary: string): string {
  const text = summary.replace(/\s+/g, ' ').trim();
  if (text.length <= DESCRIPTION_MAX) return text;
  const room = text.slice(0, DESCRIPTION_MAX - 1);
  const lastSpace = room.lastIndexOf(' ');
  const cut = trimTrailing(lastSpace > 0 ? room.slice(0, lastSpace) : room, /[\s,;:.-]/);
  return `${cut}…`;
}

/** Forges whose URLs name a repository as `/<owner>/<repo>` (GitLab also in nested groups, before `/-/`). */
const forges: Record<string, string> = {
  'github.com': 'github',
  'gitlab.com': 'gitlab',
  'bitbucket.org': 'bitbucket',
  'codeberg.org': 'codeberg',
};

/** A known forge's URL is the repository (trimmed to the repository itself); any other source URL is the website. */
export function sourceLinks(sourceUrl: string | null): Pick<ServerJson, 'repository' | 'websiteUrl'> {
  if (!sourceUrl) return {};
  const url = new URL(sourceUrl);
  const source = url.protocol === 'https:' ? forges[url.hostname.replace(/^www\./, '')] : undefined;
  const path = url.pathname.split('/-/')[0]?.split('/').filter(Boolean) ?? [];
  const segments = source === 'gitlab' ? path : path.slice(0, 2);
  if (!source || segments.length < 2) return { websiteUrl: sourceUrl };
  const repo = segments.join('/').replace(/\.git$/, '');
  return { repository: { url: `https://${url.hostname}/${repo}`, source } };
}

/** The registry takes HTTPS icons of at most 255 characters; another icon URL is left out. */
const iconsOf = (iconUrl: string | null) =>
  iconUrl?.startsWith('https://') && iconUrl.length <= 255 ? [{ src: iconUrl }] : undefined;

const nonEmpty = <T>(list: T[]) => (list.length > 0 ? list : undefined);

export function toServerJson(source: ServerSource): ServerJson {
  const payload = (source.payload ?? {}) as Partial<McpPayload>;
  const connections = payload.connections ?? [];
  const fields = payload.configFields ?? [];
  return {
    $schema: SERVER_SCHEMA_URL,
    name: source.name,
    description: shortDescription(source.summary),
    title: source.title,
    version: source.version,
    ...sourceLinks(source.sourceUrl),
    icons: iconsOf(source.iconUrl),
    packages: nonEmpty(packagesOf(connections, fields)),
    remotes: nonEmpty(remotesOf(connections, fields)),
  };
}
