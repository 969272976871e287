// A field of an MCP entry at a key inside one of its objects ("annotations.readOnlyHint"): read, taken out of what the
// entry came with (so the rest of that object stays kept as it came), and written back beside what is kept. Objects
// on the way are copied, never changed in place.
import { isJsonObject } from './json-object-text.js';

type Fields = Record<string, unknown>;

const pathOf = (key: string) => key.split('.');

/** The value at the key, or undefined where an object on the way is missing. */
export function valueAt(fields: Fields, key: string): unknown {
  let at: unknown = fields;
  for (const part of pathOf(key)) at = isJsonObject(at) ? at[part] : undefined;
  return at;
}

/** The fields without the value at the key; an object the key was inside is left out once nothing else is in it. */
export function withoutKey(fields: Fields, key: string): Fields {
  const [first = '', ...rest] = pathOf(key);
  if (!(first in fields)) return fields;
  const { [first]: inner, ...others } = fields;
  if (rest.length === 0) return others;
  if (!isJsonObject(inner)) return fields;
  const left = withoutKey(inner, rest.join('.'));
  if (left === inner) return fields;
  return Object.keys(left).length ? { ...others, [first]: left } : others;
}

/** The fields with the value at the key, inside the objects already there (made where missing or not an object). */
export function withKey(fields: Fields, key: string, value: unknown): Fields {
  const [first = '', ...rest] = pathOf(key);
  if (rest.length === 0) return { ...fields, [first]: value };
  const inner = fields[first];
  return { ...fields, [first]: withKey(isJsonObject(inner) ? inner : {}, rest.join('.'), value) };
}

/** The kept fields as named in a row's hint: "mimeType", or "annotations.audience" for what is left of an object. */
export function keptNames(kept: Fields, nestedKeys: readonly string[]): string[] {
  const opened = new Set(nestedKeys.filter((key) => key.includes('.')).map((key) => pathOf(key)[0]));
  return Object.keys(kept)
    .flatMap((key) => {
      const value = kept[key];
      return opened.has(key) && isJsonObject(value) ? Object.keys(value).map((inner) => `${key}.${inner}`) : [key];
    })
    .sort();
}
