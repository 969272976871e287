// Public JSON conventions of the catalog family: camelCase, ISO timestamps, null and undefined fields omitted.
export type Json = string | number | boolean | Json[] | { [key: string]: Json };

export function withoutNulls<T extends Record<string, unknown>>(value: T): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null || v === undefined) continue;
    out[key] = v instanceof Date ? v.toISOString() : (v as Json);
  }
  return out;
}
