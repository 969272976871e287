// Parses SKILL.md: its YAML front matter (with `yaml`, plain data only: no custom or language tags, bounded
// aliases, a mapping at the top) and the Agent Skills rules for its fields. Every problem is reported.
import { isMap, LineCounter, parseDocument } from 'yaml';
import { codePointName, firstHidingCharacter } from '../validation/unseen-characters.js';

export type SkillFrontMatter = {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  allowedTools?: string[];
  /** Every key of the front matter as parsed (plain data), for fields beyond the standard ones. */
  fields: Record<string, unknown>;
};

export type SkillMdParse =
  | { ok: true; frontMatter: SkillFrontMatter; body: string }
  | { ok: false; problems: string[] };

export const FRONT_MATTER_MAX_BYTES = 32 * 1024;
export const MAX_ALIAS_COUNT = 20;
const NAME_MAX = 64;
const DESCRIPTION_MAX = 1024;
const COMPATIBILITY_MAX = 500;

/** Splits `---\n<yaml>\n---\n<body>`; null when SKILL.md does not open with a front matter block. */
export function splitFrontMatter(text: string): { yaml: string; body: string } | { unclosed: true } | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return null;
  const end = lines.findIndex((line, i) => i > 0 && (line.trimEnd() === '---' || line.trimEnd() === '...'));
  if (end < 0) return { unclosed: true };
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1).join('\n') };
}

const firstLine = (message: string) => message.split('\n')[0]!.trim();

/** Problems with `name` per the Agent Skills format, each as a sentence. */
export function skillNameProblems(name: unknown): string[] {
  if (name === undefined || name === null || name === '') return ['The front matter must set `name`.'];
  if (typeof name !== 'string') return ['`name` must be a string.'];
  const problems: string[] = [];
  const shown = JSON.stringify(name);
  if (name.length > NAME_MAX) problems.push(`\`name\` must be at most ${NAME_MAX} characters (it has ${name.length}).`);
  if (/[A-Z]/.test(name)) problems.push(`\`name\` ${shown} must be lowercase.`);
  if (/[^A-Za-z0-9-]/.test(name)) {
    problems.push(`\`name\` ${shown} may contain only lowercase letters, digits and hyphens.`);
  }
  if (name.startsWith('-') || name.endsWith('-'))
    problems.push(`\`name\` ${shown} must not start or end with a hyphen.`);
  if (name.includes('--')) problems.push(`\`name\` ${shown} must not contain consecutive hyphens.`);
  return problems;
}

function optionalString(fields: Record<string, unknown>, key: string, max: number | null, problems: string[]) {
  const value = fields[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    problems.push(`\`${key}\` must be a non-empty string.`);
    return undefined;
  }
  // Characters are code points, as for `description`.
  const characters = max === null ? 0 : [...value].length;
  if (max !== null && characters > max) {
    problems.push(`\`${key}\` must be at most ${max} characters (it has ${characters}).`);
  }
  return value;
}

function readMetadata(value: unknown, problems: string[]): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push('`metadata` must be a mapping of string keys to string values.');
    return undefined;
  }
  const entries: [string, string][] = [];
  for (const [key, item] of Object.entries(value)) {
    if (typeof item === 'string') entries.push([key, item]);
    else problems.push(`\`metadata.${key}\` must be a string (quote it, e.g. "1.0").`);
  }
  // fromEntries defines own properties, so a `__proto__` key stays a plain key.
  return Object.fromEntries(entries);
}

function readAllowedTools(value: unknown, problems: string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  problems.push('`allowed-tools` must be a space-separated string of tool names.');
  return undefined;
}

/** Parses the YAML text of a front matter block into plain data, or the reasons it cannot be. */
// What YAML says of a plain value holding ": " (`description: Use it: when…`), the commonest mistake in front matter.
const colonHint = new Set(['BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY']);
const COLON_HINT = ' A value that holds ": " must be quoted, e.g. `description: "Use it: when…"`.';

function parseYaml(source: string): { fields: Record<string, unknown> } | { problems: string[] } {
  // Line numbers from yaml's own counter (one pass): slicing the source per error was quadratic in the errors, which
  // a 32 KiB front matter can make by thousands (a review). SKILL.md's line is the front matter's plus the `---` line.
  const lines = new LineCounter();
  const doc = parseDocument(source, {
    lineCounter: lines,
    version: '1.2',
    schema: 'core',
    customTags: [],
    resolveKnownTags: false,
    merge: false,
    uniqueKeys: true,
    stringKeys: true,
    prettyErrors: false,
  });
  const problems = doc.errors.map(
    (e) =>
      `The SKILL.md front matter is not valid YAML: ${firstLine(e.message)} (line ${lines.linePos(e.pos[0]).line + 1} of ` +
      `SKILL.md).${colonHint.has(e.code) ? COLON_HINT : ''}`,
  );
  for (const warning of doc.warnings) {
    problems.push(
      warning.code === 'TAG_RESOLVE_FAILED'
        ? `The SKILL.md front matter uses a YAML tag that is not allowed (${firstLine(warning.message)}); only plain values are accepted.`
        : `The SKILL.md front matter has a YAML problem: ${firstLine(warning.message)}.`,
    );
  }
  if (problems.length > 0) return { problems };
  if (doc.contents === null)
    return { problems: ['The SKILL.md front matter is empty; it must set `name` and `description`.'] };
  if (!isMap(doc.contents)) {
    return {
      problems: ['The SKILL.md front matter must be a YAML mapping of keys to values (e.g. `name: my-skill`).'],
    };
  }
  try {
    return { fields: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Record<string, unknown> };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problems: [`The SKILL.md front matter expands too many YAML aliases (${reason}).`] };
  }
}

/**
 * Parses SKILL.md. `folderName` is the skill's folder when the bundle has one: the Agent Skills format asks
 * that `name` match it.
 */
export function parseSkillMd(text: string, options: { folderName?: string | null } = {}): SkillMdParse {
  const split = splitFrontMatter(text);
  if (split === null) {
    return { ok: false, problems: ['SKILL.md must start with YAML front matter between two `---` lines.'] };
  }
  if ('unclosed' in split) {
    return { ok: false, problems: ['The SKILL.md front matter is never closed: add a `---` line after it.'] };
  }
  if (Buffer.byteLength(split.yaml) > FRONT_MATTER_MAX_BYTES) {
    return { ok: false, problems: [`The SKILL.md front matter is larger than ${FRONT_MATTER_MAX_BYTES / 1024} KiB.`] };
  }
  const parsed = parseYaml(split.yaml);
  if ('problems' in parsed) return { ok: false, problems: parsed.problems };
  const { fields } = parsed;

  const problems = skillNameProblems(fields.name);
  const name = typeof fields.name === 'string' ? fields.name : '';
  if (problems.length === 0 && options.folderName && options.folderName !== name) {
    problems.push(
      `\`name\` ${JSON.stringify(name)} must match the skill's folder name ${JSON.stringify(options.folderName)}.`,
    );
  }
  const description = fields.description;
  if (description === undefined || description === null || description === '') {
    problems.push('The front matter must set `description`.');
  } else if (typeof description !== 'string' || description.trim() === '') {
    problems.push('`description` must be a non-empty string.');
  } else {
    // Characters are code points (as the Agent Skills reference validator counts), not UTF-16 units.
    const characters = [...description].length;
    if (characters > DESCRIPTION_MAX) {
      problems.push(`\`description\` must be at most ${DESCRIPTION_MAX} characters (it has ${characters}).`);
    }
    // An agent reads the description to decide when to use the skill: tag characters are text it reads and a
    // reviewer does not see, and bidirectional controls show the text around them in another order.
    const hiding = firstHidingCharacter(description);
    if (hiding !== null) {
      problems.push(
        `\`description\` must not hold invisible tag characters or bidirectional controls (it has ${codePointName(hiding)}).`,
      );
    }
  }
  const license = optionalString(fields, 'license', null, problems);
  const compatibility = optionalString(fields, 'compatibility', COMPATIBILITY_MAX, problems);
  const metadata = readMetadata(fields.metadata, problems);
  const allowedTools = readAllowedTools(fields['allowed-tools'], problems);
  if (problems.length > 0) return { ok: false, problems };

  const frontMatter: SkillFrontMatter = { name, description: description as string, fields };
  if (license !== undefined) frontMatter.license = license;
  if (compatibility !== undefined) frontMatter.compatibility = compatibility;
  if (metadata !== undefined) frontMatter.metadata = metadata;
  if (allowedTools !== undefined) frontMatter.allowedTools = allowedTools;
  return { ok: true, frontMatter, body: split.body };
}
