// An MCP server's tools, resources, prompts and settings as rows of fields: what each list's row shows (the fields of
// the API's schemas in shared/catalog/version-payloads.ts, a prompt's arguments as rows inside its row), and the
// conversions between an entry as the API holds it and as the form edits it. Whatever else an entry carries (a
// tool's `inputSchema`, a resource's `mimeType`) is kept and sent back as it came. Every row has an id of its own, so
// an error found in it stays with it when rows before it are removed, and goes with it when it is removed.

export type EntryList = 'tools' | 'resources' | 'prompts' | 'configFields';

/** One entry as the form edits it: its shown fields as typed (a checkbox is `'true'` or `''`), its rows inside it
 * (a prompt's arguments), and the rest. */
export type Entry = { id: string; values: Record<string, string>; sub: Entry[]; kept: Record<string, unknown> };

export type EntryInput = {
  key: string;
  label: string;
  /** A text input unless it names its options (a select) or is a checkbox. */
  options?: (values: Record<string, string>) => readonly string[] | undefined;
  /** An option's text where it is not the value ('' is "none"). */
  optionLabel?: (option: string) => string;
  checkbox?: boolean;
  /** A checkbox sent only when ticked (`required: true`), not as `false`. */
  onlyWhenTicked?: boolean;
  /** The value the API takes from the text (a setting's `default` is typed by the setting's type). */
  toBody?: (text: string, values: Record<string, string>) => unknown;
  fromBody?: (value: unknown) => string;
};

export type EntryKind = {
  list: EntryList | 'arguments';
  legend: string;
  /** "tool": "Tool 1 name", "Add a tool", "Remove tool 1", "No tools yet.". */
  noun: string;
  plural: string;
  /** "a" or "an": "Add an argument". */
  article: string;
  inputs: EntryInput[];
  /** A list of rows inside each row (a prompt's `arguments`). */
  sub?: { key: string; kind: EntryKind };
};

const name: EntryInput = { key: 'name', label: 'name' };
const description: EntryInput = { key: 'description', label: 'description' };

export const settingTypes = ['string', 'number', 'boolean', 'secret'] as const;

const booleanDefaults = ['', 'true', 'false'];
const numberText = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/**
 * A setting's default as its type has it: `true`/`false` for a boolean, a number for a number written as one, else
 * the text (the API takes a string, a number or a boolean whatever the type); blank is no default.
 */
export function defaultOf(text: string, values: Record<string, string>): unknown {
  if (!text) return undefined;
  if (values.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (values.type === 'number' && numberText.test(text) && Number.isFinite(Number(text))) return Number(text);
  return text;
}

const settingDefault: EntryInput = {
  key: 'default',
  label: 'default',
  // A boolean's default is chosen (with the value it came with, when it is neither); any other is typed.
  options: (values) =>
    values.type === 'boolean'
      ? [...booleanDefaults, ...(booleanDefaults.includes(values.default ?? '') ? [] : [values.default ?? ''])]
      : undefined,
  optionLabel: (option) => option || 'none',
  toBody: defaultOf,
  fromBody: (value) =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '',
};

const promptArgument: EntryKind = {
  list: 'arguments',
  legend: 'Arguments',
  noun: 'argument',
  plural: 'arguments',
  article: 'an',
  inputs: [name, { key: 'required', label: 'required', checkbox: true, onlyWhenTicked: true }, description],
};

export const entryKinds: (EntryKind & { list: EntryList })[] = [
  { list: 'tools', legend: 'Tools', noun: 'tool', plural: 'tools', article: 'a', inputs: [name, description] },
  {
    list: 'resources',
    legend: 'Resources',
    noun: 'resource',
    plural: 'resources',
    article: 'a',
    inputs: [name, { key: 'uri', label: 'URI' }, description],
  },
  {
    list: 'prompts',
    legend: 'Prompts',
    noun: 'prompt',
    plural: 'prompts',
    article: 'a',
    inputs: [name, description],
    sub: { key: 'arguments', kind: promptArgument },
  },
  {
    list: 'configFields',
    legend: 'Settings',
    noun: 'setting',
    plural: 'settings',
    article: 'a',
    inputs: [
      name,
      { key: 'label', label: 'label' },
      { key: 'type', label: 'type', options: () => settingTypes },
      { key: 'required', label: 'required', checkbox: true },
      settingDefault,
      description,
    ],
  },
];

let lastId = 0;
const nextId = () => `entry-${++lastId}`;

const firstOption = (input: EntryInput) => input.options?.({})?.[0] ?? '';

export const emptyEntry = (kind: EntryKind): Entry => ({
  id: nextId(),
  values: Object.fromEntries(kind.inputs.map((input) => [input.key, firstOption(input)])),
  sub: [],
  kept: {},
});

/** The entries of a list as the API answered it (anything not an array is no entries). */
export function entriesOf(kind: EntryKind, value: unknown): Entry[] {
  if (!Array.isArray(value)) return [];
  return value.map((item) => {
    const kept = { ...((item ?? {}) as Record<string, unknown>) };
    const values: Record<string, string> = {};
    for (const input of kind.inputs) {
      const v = kept[input.key];
      delete kept[input.key];
      if (input.checkbox) values[input.key] = v === true ? 'true' : '';
      else if (input.fromBody) values[input.key] = input.fromBody(v);
      else values[input.key] = typeof v === 'string' ? v : firstOption(input);
    }
    let sub: Entry[] = [];
    if (kind.sub) {
      sub = entriesOf(kind.sub.kind, kept[kind.sub.key]);
      delete kept[kind.sub.key];
    }
    return { id: nextId(), values, sub, kept };
  });
}

/**
 * An entry as the API takes it: what it came with, then its shown fields, trimmed. A blank text field is left out,
 * except the name, which the API requires (so its schema names the row); a checkbox is a boolean; a list inside it is
 * left out when empty.
 */
export function entryBody(kind: EntryKind, entry: Entry): Record<string, unknown> {
  const out: Record<string, unknown> = { ...entry.kept };
  for (const input of kind.inputs) {
    const v = (entry.values[input.key] ?? '').trim();
    if (input.checkbox) {
      if (v === 'true' || !input.onlyWhenTicked) out[input.key] = v === 'true';
    } else if (input.toBody) {
      const value = input.toBody(v, entry.values);
      if (value !== undefined) out[input.key] = value;
    } else if (v || input.key === 'name') out[input.key] = v;
  }
  if (kind.sub && entry.sub.length) out[kind.sub.key] = entry.sub.map((row) => entryBody(kind.sub!.kind, row));
  return out;
}

/** "Resource 2", or "Prompt 1 argument 2" inside a row: how a row is named in its labels and errors. */
export const rowName = (kind: EntryKind, index: number, parent?: string) =>
  parent
    ? `${parent} ${kind.noun} ${index + 1}`
    : `${kind.noun.charAt(0).toUpperCase()}${kind.noun.slice(1)} ${index + 1}`;

/** Where a row's error is kept: under its own id, so it follows the row and not its position. */
export const rowErrorKey = (list: EntryList, id: string, field: string) => `${list}#${id}#${field}`;

/**
 * The row an issue of a list points at (`[1, 'name']`, `[0, 'arguments', 2, 'name']` of `prompts`): its error key and
 * what the issue says of it, or undefined when it names no row (the list's own length).
 */
export function rowErrorOf(
  kind: EntryKind & { list: EntryList },
  rows: Entry[],
  path: readonly PropertyKey[],
): { key: string; field: string } | undefined {
  const [index, ...rest] = path;
  const row = typeof index === 'number' ? rows[index] : undefined;
  if (!row) return undefined;
  const [subKey, subIndex, ...subRest] = rest;
  const subRow = kind.sub && subKey === kind.sub.key && typeof subIndex === 'number' ? row.sub[subIndex] : undefined;
  const field = (subRow ? subRest : rest).map(String).join('.');
  return { key: rowErrorKey(kind.list, (subRow ?? row).id, field), field };
}

/** Whether a row of the list (or a row inside one) still holds this id. */
export const holdsRow = (rows: Entry[], id: string): boolean =>
  rows.some((row) => row.id === id || holdsRow(row.sub, id));
