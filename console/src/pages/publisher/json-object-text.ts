// A JSON object (a tool's `inputSchema`) as a text area edits it: pretty-printed with two spaces from what the API
// holds, read back as the object it spells, and what is wrong with text that spells none, in the words its field shows.

export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text of an object as the API holds it; anything else is no text. */
export const jsonObjectText = (value: unknown): string => (isJsonObject(value) ? JSON.stringify(value, null, 2) : '');

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

/** The object the text spells (blank is none), or what is wrong with it. */
export function jsonObjectOf(text: string): { value?: Record<string, unknown>; error?: string } {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // The browser's words say where the text stops being JSON ("… at position 12 (line 2 column 3)").
    return { error: `Must be JSON: ${(error as Error).message}` };
  }
  return isJsonObject(value) ? { value } : { error: `Must be a JSON object ({ … }), not ${kindOf(value)}.` };
}
