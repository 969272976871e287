// An MCP server's tools, resources, prompts and settings as rows of fields: what each list's row shows (the fields of
// the API's schemas in shared/catalog/version-payloads.ts and a tool's MCP annotations, a tool's input schema as JSON
// text, a prompt's arguments as rows inside its row), and the conversions between an entry as the API holds it and as
// the form edits it. Whatever else an entry carries (a tool's `outputSchema`, an annotation MCP adds later) is kept and
// sent back as it came. Every row has an id of its own, so an error found in it stays with it when rows before it are
// removed, and goes with it when it is removed.
import { keptNames, valueAt, withKey, withoutKey } from './entry-keys.js';
import { isJsonObject, jsonObjectOf, jsonObjectText } from './json-object-text.js';

export type EntryList = 'tools' | 'resources' | 'prompts' | 'configFields';

/** One entry as the form edits it: its shown fields as typed (a checkbox is `'true'` or `''`), its rows inside it
 * (a prompt's arguments), and the rest. */
export type Entry = { id: string; values: Record<string, string>; sub: Entry[]; kept: Record<string, unknown> };

export type EntryInput = {
  /** The entry's key, or a key inside one of its objects (`annotations.readOnlyHint`). */
  key: string;
  label: string;
  hint?: string;
  /** A text input unless it names its options (a select), is a checkbox, or is a JSON object in a text area. */
  options?: (values: Record<string, string>) => readonly string[] | undefined;
  /** An option's text where it is not the value ('' is "none"). */
  optionLabel?: (option: string) => string;
  checkbox?: boolean;
  /** A checkbox sent only when ticked (`required: true`), not as `false`. */
  onlyWhenTicked?: boolean;
  /** A JSON object in a text area: pretty-printed from the API's value, sent as the object the text spells (blank is
   * none); text that spells none is the row's error and nothing is sent. */
  json?: boolean;
  /** How much of the row's line the field takes: the rest of it (a description), or a line of its own. */
  width?: 'rest' | 'line';
  /** Fields shown together in a group of their own, named by the row ("Tool 1 annotations"). */
  group?: string;
  /** The values the field shows; a value it came with that is none of them stays kept as it came. */
  shows?: (value: unknown) => boolean;
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
const description: EntryInput = { key: 'description', label: 'description', width: 'rest' };

export const settingTypes = ['string', 'number', 'boolean', 'secret'] as const;

const booleanDefaults = ['', 'true', 'false'];

/** `true`/`false` as chosen; blank is none. */
const booleanOf = (text: string) => (text === 'true' ? true : text === 'false' ? false : undefined);

/**
 * One of MCP's tool annotation hints, chosen as unset, true or false. Unset sends nothing: MCP gives each hint a
 * default (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true), which the option says.
 */
const toolHint = (key: string, label: string, mcpDefault: boolean): EntryInput => ({
  key: `annotations.${key}`,
  label,
  group: 'annotations',
  options: () => booleanDefaults,
  optionLabel: (option) => option || `unset (${mcpDefault})`,
  shows: (value) => typeof value === 'boolean',
  toBody: booleanOf,
  fromBody: (value) => (typeof value === 'boolean' ? String(value) : ''),
});

const toolInputs: EntryInput[] = [
  name,
  description,
  { key: 'annotations.title', label: 'title', group: 'annotations', shows: (value) => typeof value === 'string' },
  toolHint('readOnlyHint', 'read-only hint', false),
  toolHint('destructiveHint', 'destructive hint', true),
  toolHint('idempotentHint', 'idempotent hint', false),
  toolHint('openWorldHint', 'open-world hint', true),
  {
    key: 'inputSchema',
    label: 'input schema',
    json: true,
    width: 'line',
    hint: 'The JSON Schema of its arguments, e.g. {"type": "object", "properties": {…}}; blank for none.',
  },
];
const numberText = /^[-+]?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

/**
 * A setting's default as its type has it: `true`/`false` for a boolean, a number for a number written as one, else
 * the text (the API takes a string, a number or a boolean whatever the type); blank is no default.
 */
export function defaultOf(text: string, values: Record<string, string>): unknown {
  if (!text) return undefined;
  if (values.type === 'boolean' && booleanOf(text) !== undefined) return booleanOf(text);
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
  { list: 'tools', legend: 'Tools', noun: 'tool', plural: 'tools', article: 'a', inputs: toolInputs },
  {
    list: 'resources',
    legend: 'Resources',
    noun: 'resource',
    plural: 'resources',
    article: 'a',
    inputs: [name, { key: 'uri', label: 'URI' }, { key: 'mimeType', label: 'MIME type' }, description],
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

/** The inputs in the order shown, each group's together: `{ inputs: [name] }, { group: 'annotations', inputs: […] }`. */
export function inputRuns(inputs: EntryInput[]): { group?: string; inputs: EntryInput[] }[] {
  const runs: { group?: string; inputs: EntryInput[] }[] = [];
  for (const input of inputs) {
    const last = runs.at(-1);
    if (input.group && last?.group === input.group) last.inputs.push(input);
    else runs.push(input.group ? { group: input.group, inputs: [input] } : { inputs: [input] });
  }
  return runs;
}

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
    let kept = isJsonObject(item) ? item : {};
    const values: Record<string, string> = {};
    for (const input of kind.inputs) {
      const v = valueAt(kept, input.key);
      const shows = input.shows ?? (input.json ? isJsonObject : undefined);
      if (v !== undefined && shows && !shows(v)) {
        values[input.key] = firstOption(input);
        continue;
      }
      kept = withoutKey(kept, input.key);
      if (input.checkbox) values[input.key] = v === true ? 'true' : '';
      else if (input.json) values[input.key] = jsonObjectText(v);
      else if (input.fromBody) values[input.key] = input.fromBody(v);
      else values[input.key] = typeof v === 'string' ? v : firstOption(input);
    }
    let sub: Entry[] = [];
    if (kind.sub) {
      sub = entriesOf(kind.sub.kind, kept[kind.sub.key]);
      kept = withoutKey(kept, kind.sub.key);
    }
    return { id: nextId(), values, sub, kept };
  });
}

/** The value of one shown field as the API takes it, or undefined for none. */
function bodyValue(input: EntryInput, text: string, values: Record<string, string>): unknown {
  if (input.checkbox) return text === 'true' || !input.onlyWhenTicked ? text === 'true' : undefined;
  if (input.json) return jsonObjectOf(text).value;
  if (input.toBody) return input.toBody(text, values);
  return text || input.key === 'name' ? text : undefined;
}

/**
 * An entry as the API takes it: what it came with, then its shown fields, trimmed, each at its key (inside the object
 * it names, beside what that object kept). A blank text field is left out, except the name, which the API requires
 * (so its schema names the row); a checkbox is a boolean; a JSON text the object it spells (`entryTextErrors` says
 * when it spells none); a list inside it is left out when empty.
 */
export function entryBody(kind: EntryKind, entry: Entry): Record<string, unknown> {
  let out: Record<string, unknown> = { ...entry.kept };
  for (const input of kind.inputs) {
    const value = bodyValue(input, (entry.values[input.key] ?? '').trim(), entry.values);
    if (value !== undefined) out = withKey(out, input.key, value);
  }
  if (kind.sub && entry.sub.length) out[kind.sub.key] = entry.sub.map((row) => entryBody(kind.sub!.kind, row));
  return out;
}

/** What the page finds wrong in the rows' texts before the API's schema can judge them (JSON that spells no object). */
export function entryTextErrors(list: EntryList, kind: EntryKind, rows: Entry[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const row of rows) {
    for (const input of kind.inputs.filter((i) => i.json)) {
      const { error } = jsonObjectOf(row.values[input.key] ?? '');
      if (error) errors[rowErrorKey(list, row.id, input.key)] = error;
    }
    if (kind.sub) Object.assign(errors, entryTextErrors(list, kind.sub.kind, row.sub));
  }
  return errors;
}

/** What a row keeps as it came, as its hint names it ("annotations.audience, outputSchema"). */
export const keptFieldsOf = (kind: EntryKind, entry: Entry) =>
  keptNames(
    entry.kept,
    kind.inputs.map((input) => input.key),
  );

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
