// Where the API's refusal of a whole request body belongs in an MCP draft's form. The body parser refuses JSON nested
// deeper than MAX_JSON_DEPTH or holding too many objects, arrays, values or keys (400 Request.TooDeep,
// Request.TooManyValues) and a body past its byte limit (413 Request.TooLarge), naming no field (api/http/json-body.ts).
// A JSON text typed in a row (a tool's input schema) is the part of the form that grows so: the refusal is shown on the
// first row whose JSON alone passes the limit, measured with the API's own check (shared/validation/json-shape.ts) at
// the depth it sits in a draft's update; a body too large, on the row holding the longest JSON when that is over half
// the body. Otherwise no row is named, and the form's error line says it alone, as before.
import { JsonBudget, MAX_JSON_DEPTH } from '../../../../shared/validation/json-shape.js';
import { jsonObjectOf } from './json-object-text.js';
import { type Entry, type EntryKind, type EntryList, entryKinds, rowErrorKey } from './mcp-entries.js';

/** The codes of the API's refusals of a whole body. */
const bodyLimitCodes = ['Request.TooDeep', 'Request.TooManyValues', 'Request.TooLarge'];

/** The levels of objects and arrays around a row's field in a draft's update: the body, `version`, the list, the row. */
const ROW_NESTING = 4;

type JsonField = { key: string; text: string; nesting: number };

/** Every JSON field of the rows (and rows inside them) with its compact text as it is sent. */
function jsonFields(list: EntryList, kind: EntryKind, rows: Entry[], nesting: number): JsonField[] {
  return rows.flatMap((row) => [
    ...kind.inputs
      .filter((input) => input.json)
      .flatMap((input) => {
        const { value } = jsonObjectOf(row.values[input.key] ?? '');
        return value ? [{ key: rowErrorKey(list, row.id, input.key), text: JSON.stringify(value), nesting }] : [];
      }),
    ...(kind.sub ? jsonFields(list, kind.sub.kind, row.sub, nesting + 2) : []),
  ]);
}

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The row's field the refusal belongs to, with the API's message, or no error when no row's JSON is the cause. */
export function bodyLimitErrors(
  code: string,
  message: string,
  lists: Record<EntryList, Entry[]>,
  sentBytes: number,
): Record<string, string> {
  if (!bodyLimitCodes.includes(code)) return {};
  const fields = entryKinds.flatMap((kind) => jsonFields(kind.list, kind, lists[kind.list], ROW_NESTING));
  const cause =
    code === 'Request.TooLarge'
      ? fields.reduce<JsonField | undefined>(
          (longest, f) => (f.text.length > (longest?.text.length ?? 0) ? f : longest),
          undefined,
        )
      : fields.find((f) => {
          const excess = new JsonBudget(undefined, undefined, MAX_JSON_DEPTH - f.nesting).charge(utf8(f.text));
          return code === 'Request.TooDeep' ? excess === 'depth' : excess !== undefined && excess !== 'depth';
        });
  if (!cause || (code === 'Request.TooLarge' && utf8(cause.text).length * 2 <= sentBytes)) return {};
  return { [cause.key]: message };
}
