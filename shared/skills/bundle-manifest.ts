// Derives what the catalog stores for a skill version from its inspected bundle and parsed SKILL.md:
// bundleFiles, parameters, dependencies and examples (sources and rules: docs/skill-bundles.md).
import type { BundleFile, InspectedBundle } from './bundle-inspector.js';
import { examplesFromFiles, examplesFromSkillMd, MAX_EXAMPLES, type SkillExample } from './skill-examples.js';
import type { SkillFrontMatter } from './skill-md.js';

export type { SkillExample } from './skill-examples.js';

export type SkillParameter = {
  name: string;
  description?: string;
  type?: string;
  required: boolean;
  default?: unknown;
};
export type DependencySource = 'frontmatter' | 'requirements.txt' | 'package.json';
export type SkillDependency = { name: string; version?: string; source: DependencySource };

export type BundleManifest = {
  bundleFiles: BundleFile[];
  parameters: SkillParameter[];
  dependencies: SkillDependency[];
  examples: SkillExample[];
};

export type ManifestResult = { ok: true; manifest: BundleManifest } | { ok: false; problems: string[] };

export const MAX_PARAMETERS = 50;
export const MAX_DEPENDENCIES = 200;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
// The name and what comes before the version. No pattern reaches the line's end: `(.*?)\s*$` backtracked over
// whitespace inside the version, quadratic in its length (a review finding), so the rest is taken as a slice.
const REQUIREMENT_NAME = /^(@?[A-Za-z0-9][A-Za-z0-9._/-]*)(?:\[[^\]]*\])?\s*@?\s*/;
const LINE_TERMINATOR = /[\r\u2028\u2029]/;

/** The files (relative to the skill root) whose text the manifest reads, for the inspector's `captureText`. */
export const isManifestSource = (relativePath: string) =>
  relativePath === 'requirements.txt' || relativePath === 'package.json' || relativePath.startsWith('examples/');

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function readParameter(name: string, spec: unknown, problems: string[]): SkillParameter | null {
  if (!PARAMETER_NAME.test(name)) {
    problems.push(
      `Parameter name ${JSON.stringify(name)} must be a letter or "_" then letters, digits, "_", "." or "-" (at most 64).`,
    );
    return null;
  }
  if (spec === null || spec === undefined) return { name, required: false };
  if (typeof spec === 'string') return { name, description: spec, required: false };
  if (!isPlainObject(spec)) {
    problems.push(
      `Parameter ${JSON.stringify(name)} must be a description or a mapping (description, type, required, default).`,
    );
    return null;
  }
  const parameter: SkillParameter = { name, required: spec.required === true };
  if (spec.required !== undefined && typeof spec.required !== 'boolean') {
    problems.push(`Parameter ${JSON.stringify(name)}: \`required\` must be true or false.`);
  }
  for (const key of ['description', 'type'] as const) {
    const value = spec[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') parameter[key] = value;
    else problems.push(`Parameter ${JSON.stringify(name)}: \`${key}\` must be a string.`);
  }
  if (spec.default !== undefined) parameter.default = spec.default;
  return parameter;
}

/** `parameters` in the front matter: a list of names or of mappings with `name`, or a mapping from name to spec. */
export function readParameters(value: unknown, problems: string[]): SkillParameter[] {
  if (value === undefined || value === null) return [];
  // Each item is a [name, spec] pair or, when it cannot be one, the sentence saying why (kept in order).
  let items: ([string, unknown] | string)[];
  if (Array.isArray(value)) {
    items = value.map((item): [string, unknown] | string => {
      if (typeof item === 'string') return [item, null];
      if (isPlainObject(item) && typeof item.name === 'string') return [item.name, item];
      return 'Each item of `parameters` must be a name or a mapping with a `name`.';
    });
  } else if (isPlainObject(value)) {
    items = Object.entries(value);
  } else {
    problems.push('`parameters` must be a list or a mapping of parameter names.');
    return [];
  }
  if (items.length > MAX_PARAMETERS) problems.push(`A skill may declare at most ${MAX_PARAMETERS} parameters.`);
  const seen = new Set<string>();
  const parameters: SkillParameter[] = [];
  for (const item of items.slice(0, MAX_PARAMETERS)) {
    if (typeof item === 'string') {
      problems.push(item);
      continue;
    }
    const [name, spec] = item;
    if (seen.has(name)) problems.push(`Parameter ${JSON.stringify(name)} is declared twice.`);
    seen.add(name);
    const parameter = readParameter(name, spec, problems);
    if (parameter) parameters.push(parameter);
  }
  return parameters;
}

/** "pandas>=1.5", "@scope/pkg@^2", "requests": the name and what follows it as the version constraint. */
export function splitRequirement(spec: string): { name: string; version?: string } | null {
  const trimmed = spec.trim();
  const match = REQUIREMENT_NAME.exec(trimmed);
  if (!match) return null;
  const version = trimmed.slice(match[0].length);
  if (LINE_TERMINATOR.test(version)) return null;
  return version ? { name: match[1]!, version } : { name: match[1]! };
}

function frontMatterDependencies(value: unknown, problems: string[]): SkillDependency[] {
  if (value === undefined || value === null) return [];
  const specs: string[] = [];
  if (typeof value === 'string') specs.push(...value.split(','));
  else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) specs.push(...(value as string[]));
  else if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([name, version]) => {
      if (version === null || typeof version === 'string') {
        return [version ? { name, version, source: 'frontmatter' as const } : { name, source: 'frontmatter' as const }];
      }
      problems.push(`Dependency ${JSON.stringify(name)}: the version must be a string.`);
      return [];
    });
  } else {
    problems.push(
      '`dependencies` must be a comma-separated string, a list of strings, or a mapping from name to version.',
    );
  }
  return specs
    .map((s) => s.trim())
    .filter(Boolean)
    .flatMap((spec) => {
      const parsed = splitRequirement(spec);
      if (parsed) return [{ ...parsed, source: 'frontmatter' as const }];
      problems.push(`Dependency ${JSON.stringify(spec)} is not a package name with an optional version.`);
      return [];
    });
}

/** Requirement lines of requirements.txt; options (`-r`, `--index-url`), URLs and paths are not listed. */
function requirementsTxtDependencies(text: string | undefined): SkillDependency[] {
  if (text === undefined) return [];
  return text.split(/\r?\n/).flatMap((raw) => {
    const line = beforeFirst(beforeFirst(raw, /\s#/), ';').trim();
    if (!line || line.startsWith('#') || line.startsWith('-') || line.includes('://') || /^[./]/.test(line)) return [];
    const parsed = splitRequirement(line);
    return parsed ? [{ ...parsed, source: 'requirements.txt' as const }] : [];
  });
}

/** The text before the first `separator` (an inline comment, an environment marker), found by one linear search. */
function beforeFirst(text: string, separator: RegExp | string): string {
  const at = typeof separator === 'string' ? text.indexOf(separator) : text.search(separator);
  return at < 0 ? text : text.slice(0, at);
}

/** Runtime `dependencies` of package.json (devDependencies are the author's business). */
function packageJsonDependencies(text: string | undefined, problems: string[]): SkillDependency[] {
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    problems.push('package.json at the skill root is not valid JSON.');
    return [];
  }
  const deps = isPlainObject(json) ? json.dependencies : undefined;
  if (deps === undefined) return [];
  if (!isPlainObject(deps)) {
    problems.push('`dependencies` in package.json must be an object.');
    return [];
  }
  return Object.entries(deps).map(([name, version]) =>
    typeof version === 'string' && version
      ? { name, version, source: 'package.json' as const }
      : { name, source: 'package.json' as const },
  );
}

export function readDependencies(bundle: InspectedBundle, frontMatter: SkillFrontMatter, problems: string[]) {
  const all = [
    ...frontMatterDependencies(frontMatter.fields.dependencies, problems),
    ...requirementsTxtDependencies(bundle.texts['requirements.txt']),
    ...packageJsonDependencies(bundle.texts['package.json'], problems),
  ];
  const unique = [...new Map(all.map((d) => [`${d.source}\u0000${d.name}`, d])).values()];
  if (unique.length > MAX_DEPENDENCIES) problems.push(`A skill may declare at most ${MAX_DEPENDENCIES} dependencies.`);
  return unique.slice(0, MAX_DEPENDENCIES);
}

/** The version fields of the catalog, or every reason they cannot be derived. */
export function buildBundleManifest(
  bundle: InspectedBundle,
  frontMatter: SkillFrontMatter,
  skillMdBody: string,
): ManifestResult {
  const problems: string[] = [];
  const parameters = readParameters(frontMatter.fields.parameters, problems);
  const dependencies = readDependencies(bundle, frontMatter, problems);
  const examples = [...examplesFromFiles(bundle), ...examplesFromSkillMd(skillMdBody)].slice(0, MAX_EXAMPLES);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, manifest: { bundleFiles: bundle.files, parameters, dependencies, examples } };
}
