// A draft's form state (every field as the person typed it) and the request bodies built from it. The bodies are
// checked with the API's own zod schemas (shared/catalog), so the form refuses exactly what the API refuses.
import type { z } from 'zod';
import { draftBody, draftPatchBody } from '../../../../shared/catalog/draft-input.js';
import { versionInputSchema } from '../../../../shared/catalog/version-payloads.js';
// The API's words for a missing, empty, too short or too long field ("Must not be empty."), so the page says what
// the API would.
import '../../../../shared/validation/zod-messages.js';
import { ApiError } from '../../api/http.js';
import type { ItemType } from '../hub/hub-api.js';
import { bodyLimitErrors } from './body-limit-rows.js';
import { type Entry, entriesOf, entryBody, entryKinds, entryTextErrors, holdsRow, rowErrorOf } from './mcp-entries.js';
import type { DraftDetail, DraftVersion } from './publisher-api.js';

export type Connection = { transport: string; command: string; args: string; url: string };

export type DraftState = {
  slug: string;
  publisherSlug: string;
  name: string;
  summary: string;
  description: string;
  iconUrl: string;
  tags: string;
  categories: string[];
  version: string;
  changelog: string;
  readme: string;
  license: string;
  sourceUrl: string;
  connections: Connection[];
  /** An MCP server's lists as rows (mcp-entries.ts). */
  tools: Entry[];
  resources: Entry[];
  prompts: Entry[];
  configFields: Entry[];
  permissions: string;
  packageUrl: string;
  checksum: string;
  soulMd: string;
};

export const emptyConnection = (): Connection => ({ transport: 'stdio', command: '', args: '', url: '' });

export const emptyDraft = (): DraftState => ({
  slug: '',
  publisherSlug: '',
  name: '',
  summary: '',
  description: '',
  iconUrl: '',
  tags: '',
  categories: [],
  version: '1.0.0',
  changelog: '',
  readme: '',
  license: '',
  sourceUrl: '',
  connections: [],
  tools: [],
  resources: [],
  prompts: [],
  configFields: [],
  permissions: '',
  packageUrl: '',
  checksum: '',
  soulMd: '',
});

const str = (value: unknown) => (typeof value === 'string' ? value : '');

export function stateFromDraft(detail: DraftDetail, version: DraftVersion | undefined): DraftState {
  const v = (version ?? {}) as Record<string, unknown>;
  const connections = Array.isArray(v.connections) ? (v.connections as Record<string, unknown>[]) : [];
  return {
    ...emptyDraft(),
    slug: detail.slug,
    publisherSlug: detail.publisherSlug,
    name: detail.name,
    summary: detail.summary,
    description: detail.description,
    iconUrl: detail.iconUrl ?? '',
    tags: detail.tags.join(', '),
    categories: detail.categories,
    version: str(v.version) || '1.0.0',
    changelog: str(v.changelog),
    readme: str(v.readme),
    license: str(v.license),
    sourceUrl: str(v.sourceUrl),
    connections: connections.map((c) => ({
      transport: str(c.transport) || 'stdio',
      command: str(c.command),
      args: Array.isArray(c.args) ? (c.args as string[]).join(' ') : '',
      url: str(c.url),
    })),
    ...Object.fromEntries(entryKinds.map((kind) => [kind.list, entriesOf(kind, v[kind.list])])),
    permissions: Array.isArray(v.permissions) ? (v.permissions as string[]).join(', ') : '',
    packageUrl: str(v.packageUrl),
    checksum: str(v.checksum),
    soulMd: str(v.soulMd),
  };
}

export type FieldErrors = Record<string, string>;

const list = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
const optional = (text: string) => (text.trim() ? text.trim() : undefined);

/** The version object of a request: the common fields and the fields of the type (skills send none). */
export function versionFields(type: ItemType, s: DraftState): Record<string, unknown> {
  const out: Record<string, unknown> = {
    version: s.version.trim(),
    changelog: optional(s.changelog),
    readme: optional(s.readme),
    license: optional(s.license),
    sourceUrl: optional(s.sourceUrl),
  };
  if (type === 'mcp') {
    out.connections = s.connections.length
      ? s.connections.map((c) => ({
          transport: c.transport,
          ...(c.command.trim() ? { command: c.command.trim() } : {}),
          ...(c.args.trim() ? { args: c.args.trim().split(/\s+/) } : {}),
          ...(c.url.trim() ? { url: c.url.trim() } : {}),
        }))
      : undefined;
    for (const kind of entryKinds) {
      const rows = s[kind.list];
      out[kind.list] = rows.length ? rows.map((entry) => entryBody(kind, entry)) : undefined;
    }
    out.permissions = list(s.permissions).length ? list(s.permissions) : undefined;
  }
  if (type === 'agent' || type === 'soul') {
    out.packageUrl = optional(s.packageUrl);
    out.checksum = optional(s.checksum);
  }
  if (type === 'soul') out.soulMd = optional(s.soulMd);
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined));
}

function metadata(s: DraftState) {
  return {
    name: s.name,
    summary: s.summary,
    description: s.description,
    iconUrl: optional(s.iconUrl),
    tags: list(s.tags),
    categories: s.categories,
  };
}

/** The field a zod issue belongs to: `version.connections.0.url` → `connections`, `version.version` → `version`. */
function fieldOf(path: readonly PropertyKey[]): string {
  const [first, second] = path.map(String);
  if (first === 'version' && second) return second;
  return first ?? 'form';
}

type Issue = { path: readonly PropertyKey[]; message: string };

/**
 * The form's errors from the schema's issues or the API's (paths as the body had them, for the rows of `s`, the
 * state the body was made of): an issue in a row of an MCP list is kept under that row's id (mcp-entries.ts), so it
 * follows the row; any other under its field, the first issue of each.
 */
export function errorsOf(issues: readonly Issue[], s: DraftState): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path);
    const rest = issue.path.slice(field === 'form' ? 0 : issue.path[0] === 'version' ? 2 : 1);
    const kind = entryKinds.find((k) => k.list === field);
    const row = kind ? rowErrorOf(kind, s[kind.list], rest) : undefined;
    if (row) errors[row.key] ??= issue.message;
    else errors[field] ??= `${rest.length ? `${rest.join('.')}: ` : ''}${issue.message}`;
  }
  return errors;
}

/**
 * The field errors of the API's 4xx answer ("version.prompts.0.arguments.1.name"), placed as the form's own; a refusal
 * of the whole body (nested too deep, too large) on the row whose JSON caused it (body-limit-rows.ts).
 */
export function apiErrorsOf(error: unknown, s: DraftState, body: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  if (error.fieldErrors.length === 0) {
    return bodyLimitErrors(error.code, error.message, s, new TextEncoder().encode(JSON.stringify(body)).length);
  }
  const issues = error.fieldErrors.map((f) => ({
    path: f.path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    message: f.message,
  }));
  return errorsOf(issues, s);
}

/** The errors still shown: a row's go when the row is removed. */
export function liveErrors(errors: FieldErrors, s: DraftState): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).filter(([key]) => {
      const [list, id] = key.split('#');
      const kind = entryKinds.find((k) => k.list === list);
      return !kind || id === undefined || holdsRow(s[kind.list], id);
    }),
  );
}

/** The field names of the errors shown: "name, resources". */
export const errorFields = (errors: FieldErrors) => [...new Set(Object.keys(errors).map((key) => key.split('#')[0]))];

/** The body checked as the API checks it, after the page's own check of the rows' texts (JSON that spells no object). */
function check<S extends z.ZodType>(schema: S, body: unknown, s: DraftState) {
  const result = schema.safeParse(body);
  const textErrors = Object.assign({}, ...entryKinds.map((kind) => entryTextErrors(kind.list, kind, s[kind.list])));
  return { body, errors: { ...(result.success ? {} : errorsOf(result.error.issues, s)), ...textErrors } };
}

export function createBody(type: ItemType, s: DraftState) {
  const body = {
    slug: s.slug.trim(),
    publisherSlug: s.publisherSlug,
    ...metadata(s),
    version: versionFields(type, s),
  };
  return check(draftBody(type), body, s);
}

export function patchBody(type: ItemType, s: DraftState) {
  const body = { ...metadata(s), version: versionFields(type, s) };
  return check(draftPatchBody(type), body, s);
}

export function versionBody(type: ItemType, s: DraftState) {
  return check(versionInputSchema(type), versionFields(type, s), s);
}
