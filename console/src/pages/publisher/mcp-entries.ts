// An MCP server's tools, resources, prompts and settings as rows of fields: what each list's row shows (the fields of
// the API's schemas in shared/catalog/version-payloads.ts), and the conversions between an entry as the API holds it
// and as the form edits it. Whatever else an entry carries (a tool's `inputSchema`, a prompt's `arguments`, a
// setting's `default`) is kept and sent back as it came.

export type EntryList = 'tools' | 'resources' | 'prompts' | 'configFields';

/** One entry as the form edits it: its shown fields as typed (a checkbox is `'true'` or `''`), and the rest. */
export type Entry = { values: Record<string, string>; kept: Record<string, unknown> };

export type EntryInput = {
  key: string;
  label: string;
  /** A text input unless it names its options (a select) or is a checkbox. */
  options?: readonly string[];
  checkbox?: boolean;
};

export type EntryKind = {
  list: EntryList;
  legend: string;
  /** "tool": "Tool 1 name", "Add a tool", "Remove tool 1", "No tools yet.". */
  noun: string;
  plural: string;
  inputs: EntryInput[];
};

const name: EntryInput = { key: 'name', label: 'name' };
const description: EntryInput = { key: 'description', label: 'description' };

export const settingTypes = ['string', 'number', 'boolean', 'secret'] as const;

export const entryKinds: EntryKind[] = [
  { list: 'tools', legend: 'Tools', noun: 'tool', plural: 'tools', inputs: [name, description] },
  {
    list: 'resources',
    legend: 'Resources',
    noun: 'resource',
    plural: 'resources',
    inputs: [name, { key: 'uri', label: 'URI' }, description],
  },
  { list: 'prompts', legend: 'Prompts', noun: 'prompt', plural: 'prompts', inputs: [name, description] },
  {
    list: 'configFields',
    legend: 'Settings',
    noun: 'setting',
    plural: 'settings',
    inputs: [
      name,
      { key: 'type', label: 'type', options: settingTypes },
      { key: 'required', label: 'required', checkbox: true },
      description,
    ],
  },
];

export const emptyEntry = (kind: EntryKind): Entry => ({
  values: Object.fromEntries(kind.inputs.map((input) => [input.key, input.options?.[0] ?? ''])),
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
      else values[input.key] = typeof v === 'string' ? v : (input.options?.[0] ?? '');
    }
    return { values, kept };
  });
}

/**
 * An entry as the API takes it: what it came with, then its shown fields, trimmed. A blank text field is left out,
 * except the name, which the API requires (so its schema names the row); a checkbox is a boolean.
 */
export function entryBody(kind: EntryKind, entry: Entry): Record<string, unknown> {
  const out: Record<string, unknown> = { ...entry.kept };
  for (const input of kind.inputs) {
    const v = (entry.values[input.key] ?? '').trim();
    if (input.checkbox) out[input.key] = v === 'true';
    else if (v || input.key === 'name') out[input.key] = v;
  }
  return out;
}

/** "Resource 2": how a row is named in its labels and errors. */
export const rowName = (kind: EntryKind, index: number) =>
  `${kind.noun.charAt(0).toUpperCase()}${kind.noun.slice(1)} ${index + 1}`;

/** "1.name: Too small…" (the schema's path in the list) as "Resource 2: name: Too small…". */
export const entryError = (kind: EntryKind, message: string) =>
  message.replace(/^(\d+)\./, (_, n: string) => `${rowName(kind, Number(n))}: `);
