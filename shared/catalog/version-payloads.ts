// The version payload of each item type as zod schemas: what a publisher sends, and the type-specific part stored
// in catalog_versions.payload (the skill-bundle worker writes the skill part with `skillPayload`).
import { z } from 'zod';
import { badRequest } from '../errors/app-error.js';
import { wellFormed } from '../validation/well-formed.js';
import { type ItemType, isVersionString } from './item-types.js';

const url = z.url({ protocol: /^https?$/ }).max(2048);
const shortText = (max: number) => z.string().trim().min(1).max(max);
const jsonObject = z.record(z.string(), z.unknown());

export const mcpTransports = ['stdio', 'streamable-http', 'sse'] as const;

// MCP objects keep fields this schema does not name (the protocol adds some, e.g. tool annotations).
export const mcpConnection = z.looseObject({
  transport: z.enum(mcpTransports),
  command: shortText(512).optional(),
  args: z.array(z.string().max(1024)).max(64).optional(),
  url: url.optional(),
  env: z.record(z.string().max(128), z.string().max(1024)).optional(),
  headers: z.record(z.string().max(128), z.string().max(1024)).optional(),
});

const mcpTool = z.looseObject({
  name: shortText(128),
  description: z.string().max(4000).optional(),
  inputSchema: jsonObject.optional(),
});

const mcpResource = z.looseObject({
  name: shortText(128),
  uri: z.string().max(2048).optional(),
  description: z.string().max(4000).optional(),
  mimeType: z.string().max(128).optional(),
});

const mcpPrompt = z.looseObject({
  name: shortText(128),
  description: z.string().max(4000).optional(),
  arguments: z
    .array(
      z.object({
        name: shortText(128),
        description: z.string().max(1000).optional(),
        required: z.boolean().optional(),
      }),
    )
    .max(32)
    .optional(),
});

const mcpConfigField = z.object({
  name: shortText(128),
  label: z.string().max(200).optional(),
  description: z.string().max(2000).optional(),
  type: z.enum(['string', 'number', 'boolean', 'secret']).default('string'),
  required: z.boolean().default(false),
  default: z.union([z.string().max(1000), z.number(), z.boolean()]).optional(),
});

/** The MCP fields as a publisher sends them (all optional); `mcpPayload` is the stored, defaulted form. */
export const mcpFields = {
  connections: z.array(mcpConnection).max(16).optional(),
  tools: z.array(mcpTool).max(500).optional(),
  resources: z.array(mcpResource).max(500).optional(),
  prompts: z.array(mcpPrompt).max(500).optional(),
  configFields: z.array(mcpConfigField).max(100).optional(),
  permissions: z.array(shortText(128)).max(50).optional(),
};

export const mcpPayload = z.object(mcpFields).transform((p) => ({
  connections: p.connections ?? [],
  tools: p.tools ?? [],
  resources: p.resources ?? [],
  prompts: p.prompts ?? [],
  configFields: p.configFields ?? [],
  permissions: p.permissions ?? [],
}));

/**
 * Filled from the uploaded bundle by the skill-bundle worker at submit-review (shapes of shared/skills/
 * bundle-manifest.ts); every part stays null until then. `executesCode`, when the worker leaves it null, is derived
 * from the bundle's files at approval (see `bundleExecutesCode`).
 */
export const skillFields = {
  bundleFiles: z.array(z.looseObject({ path: z.string().max(1024), size: z.number().int().nonnegative() })).max(500),
  dependencies: z.array(jsonObject.or(z.string().max(256))).max(200),
  examples: z.array(jsonObject.or(z.string().max(4000))).max(100),
  parameters: z.array(jsonObject).max(50),
};

export const skillPayload = z.object({
  bundleFiles: skillFields.bundleFiles.nullable().default(null),
  dependencies: skillFields.dependencies.nullable().default(null),
  examples: skillFields.examples.nullable().default(null),
  parameters: skillFields.parameters.nullable().default(null),
  executesCode: z.boolean().nullable().default(null),
});

const scriptFile = /\.(py|sh|bash|zsh|js|mjs|cjs|ts|rb|pl|php|ps1|bat|cmd|exe|bin)$/i;

/** A bundle file that is code to run: a script or binary by its extension, or anything under `scripts/`. */
export const isCodeFile = (path: string) => scriptFile.test(path) || path.startsWith('scripts/');

/** Whether a skill ships code to run: any script or binary among its bundle files (null when not parsed yet). */
export function bundleExecutesCode(payload: SkillPayload | null): boolean | null {
  if (!payload) return null;
  if (payload.executesCode !== null) return payload.executesCode;
  if (!payload.bundleFiles) return null;
  return payload.bundleFiles.some((f) => isCodeFile(f.path));
}

export const agentFields = {
  packageUrl: url.optional(),
  checksum: z
    .string()
    .regex(/^(sha256:)?[0-9a-f]{64}$|^sha512-[A-Za-z0-9+/=]{86,88}$/, 'must be sha256:<64 hex> or an SRI sha512 value')
    .optional(),
};
export const soulFields = { ...agentFields, soulMd: z.string().max(100_000).optional() };

export const agentPayload = z.object(agentFields);
export const soulPayload = z.object(soulFields);

/** The type-specific fields a publisher may send; skills send none (their contents come from the bundle). */
export const publisherFields = { mcp: mcpFields, skill: {}, agent: agentFields, soul: soulFields } as const;

export const payloadSchemas = {
  mcp: mcpPayload,
  skill: skillPayload,
  agent: agentPayload,
  soul: soulPayload,
} as const satisfies Record<ItemType, z.ZodType<Record<string, unknown>>>;

export type McpPayload = z.output<typeof mcpPayload>;
export type SkillPayload = z.output<typeof skillPayload>;

/** The fields every version carries, whatever its type. */
export const commonVersionFields = {
  changelog: z.string().max(20_000).optional(),
  readme: z.string().max(200_000).optional(),
  license: shortText(128).optional(),
  sourceUrl: url.optional(),
};

export const versionString = z
  .string()
  .refine(isVersionString, 'must be a semantic version such as 1.2.0 (at most 64 characters, no leading v)');

/** What a publisher sends for a new version of `type`: the common fields plus the type's own. */
export function versionInputSchema(type: ItemType) {
  return z.strictObject({ version: versionString, ...commonVersionFields, ...publisherFields[type] });
}

/** A change to the pending version in a draft update: any field; `version`, when sent, must name that version. */
export function versionPatchSchema(type: ItemType) {
  return z.strictObject({ version: versionString.optional(), ...commonVersionFields, ...publisherFields[type] });
}

export type VersionInput = {
  version: string;
  changelog?: string;
  readme?: string;
  license?: string;
  sourceUrl?: string;
} & Record<string, unknown>;

export type VersionPatch = Partial<VersionInput>;

const commonKeys = ['changelog', 'readme', 'license', 'sourceUrl'] as const;

/** Splits a parsed version input into its columns and its stored type-specific payload. */
export function splitVersionInput(type: ItemType, input: VersionInput) {
  const { version, changelog, readme, license, sourceUrl, ...rest } = input;
  return {
    version,
    columns: {
      changelog: changelog ?? null,
      readme: readme ?? null,
      license: license ?? null,
      sourceUrl: sourceUrl ?? null,
    },
    payload: storedPayload(type, rest),
  };
}

/** The columns and payload of a pending version after a patch: only the fields the patch names change. */
export function applyVersionPatch(
  type: ItemType,
  existingPayload: Record<string, unknown> | null,
  patch: VersionPatch,
) {
  const { version: _version, ...fields } = patch;
  const columns: Partial<Record<(typeof commonKeys)[number], string>> = {};
  const typeSpecific: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if ((commonKeys as readonly string[]).includes(key)) columns[key as (typeof commonKeys)[number]] = value as string;
    else typeSpecific[key] = value;
  }
  const changesPayload = Object.keys(typeSpecific).length > 0;
  return {
    columns,
    payload: changesPayload ? storedPayload(type, { ...(existingPayload ?? {}), ...typeSpecific }) : undefined,
  };
}

/**
 * The first character in a key or string anywhere in the value that the json payload column would keep as written
 * and every `->>`, `#>>` or `::jsonb` of its row then refuses: a NUL, or one half of a surrogate pair (which YAML's
 * and JSON's escapes can write, UTF-8 bytes cannot); null when there is none. One pass, any depth.
 */
export function unstorableCharacter(value: unknown): 'NUL' | 'unpaired surrogate' | null {
  let found: 'NUL' | 'unpaired surrogate' | null = null;
  const judge = (text: string) => {
    if (found) return;
    if (text.includes('\0')) found = 'NUL';
    else if (!wellFormed(text)) found = 'unpaired surrogate';
  };
  JSON.stringify(value, (key: string, v: unknown) => {
    judge(key);
    if (typeof v === 'string') judge(v);
    return v;
  });
  return found;
}

/** What the refusal of an unstorable character says, for `Request.InvalidText` and a skill review's problems. */
export const unstorableText = {
  NUL: 'a NUL character',
  'unpaired surrogate': 'an unpaired UTF-16 surrogate (half of a pair, as a lone \\uD800–\\uDFFF escape writes)',
} as const;

/**
 * The stored payload of a type, defaults filled; a skill's stays as the bundle parse left it (or all null). A NUL
 * character is refused as the column refused it while it was jsonb: json stores `\u0000`, but every `->>` and
 * `::jsonb` of a row holding one fails (a later migration back to jsonb too), security review #127; an unpaired
 * surrogate the same way (#131; a JSON body holding one is refused before any route runs).
 */
export function storedPayload(type: ItemType, fields: Record<string, unknown>): Record<string, unknown> {
  const payload = payloadSchemas[type].parse(type === 'skill' ? {} : fields) as Record<string, unknown>;
  const unstorable = unstorableCharacter(payload);
  if (unstorable === 'NUL') {
    throw badRequest('Request.InvalidText', 'Text in the request contains a character that cannot be stored (NUL).');
  }
  if (unstorable) {
    throw badRequest(
      'Request.InvalidText',
      `Text in the request holds ${unstorableText[unstorable]}, which is not Unicode.`,
    );
  }
  return payload;
}
