// Reads a bulk-invite file: UTF-8 CSV (BOM and CRLF, LF or CR line ends, mixed, welcome) with a header naming `email`, `name` and `role`.
// Anything that is not such a file, or holds more than 500 data rows, is refused as a whole (400).
import { CsvError, parse } from 'csv-parse/sync';
import { badRequest } from '../errors/app-error.js';

export const maxBulkInviteRows = 500;
/**
 * Bounds on a file before it is parsed. csv-parse builds (and drops) an error for every row whose field count differs
 * from the header's, ~40 µs each and worse as the file grows: 1 MiB of `,` lines held the API's main thread for 21 s.
 * 1,000 lines leave room for blank lines and line breaks in quoted names; 50,000 fields for 100 columns a row.
 */
export const maxBulkInviteLines = 1_000;
export const maxBulkInviteFields = 50_000;
export const requiredColumns = ['email', 'name', 'role'] as const;

export type BulkInviteRow = { row: number; email: string; name: string; role: string };

const invalidFile = (why: string) =>
  badRequest('BulkInvite.InvalidFile', `The file is not a CSV with the columns email,name,role: ${why}`);

function decodeUtf8(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidFile('it is not UTF-8 text.');
  }
  if (text.includes('\u0000')) throw invalidFile('it holds binary data.');
  return text;
}

const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;

/** Refuses a file with more lines or fields than a bulk invite can need, in one pass over its bytes (quotes ignored). */
function assertParsable(bytes: Uint8Array): void {
  let lines = 1;
  let fields = 1;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === LF || (byte === CR && bytes[i + 1] !== LF)) {
      fields++;
      if (++lines > maxBulkInviteLines) {
        throw badRequest(
          'BulkInvite.TooManyRows',
          `The file has more than ${maxBulkInviteLines} lines; at most ${maxBulkInviteRows} data rows are accepted per file.`,
        );
      }
    } else if (byte === COMMA && ++fields > maxBulkInviteFields) {
      throw invalidFile(`it has more than ${maxBulkInviteFields.toLocaleString('en')} fields.`);
    }
  }
}

/** Parses the whole file or throws; rows come back untrimmed of meaning (validation is per row, later). */
export function parseBulkInviteCsv(bytes: Uint8Array): BulkInviteRow[] {
  if (bytes.length === 0) throw invalidFile('the file is empty.');
  assertParsable(bytes);
  const text = decodeUtf8(bytes);
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      // Every line end, whichever comes first: csv-parse otherwise takes the first one it meets as the only one, and a
      // file that mixes them (a header saved on Windows, rows pasted on a Mac) had its other rows folded into a field
      // of the row before, where an extra column hid them from the report (round 16).
      record_delimiter: ['\r\n', '\n', '\r'],
      trim: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
      max_record_size: 64 * 1024,
    });
  } catch (err) {
    if (err instanceof CsvError) throw invalidFile(err.message);
    throw err;
  }
  const [header, ...data] = records;
  if (!header) throw invalidFile('the file has no header row.');
  const names = header.map((h) =>
    h
      .replace(/^\uFEFF/, '')
      .trim()
      .toLowerCase(),
  );
  const missing = requiredColumns.filter((c) => !names.includes(c));
  if (missing.length > 0) {
    throw badRequest(
      'BulkInvite.MissingColumn',
      `The header row must name the columns email,name,role; missing: ${missing.join(', ')}.`,
    );
  }
  if (data.length === 0) throw badRequest('BulkInvite.Empty', 'The file has a header row but no data rows.');
  if (data.length > maxBulkInviteRows) {
    throw badRequest(
      'BulkInvite.TooManyRows',
      `The file has ${data.length} data rows; at most ${maxBulkInviteRows} are accepted per file.`,
    );
  }
  const at = { email: names.indexOf('email'), name: names.indexOf('name'), role: names.indexOf('role') };
  const column = (record: string[], name: (typeof requiredColumns)[number]) => (record[at[name]] ?? '').trim();
  return data.map((record, i) => ({
    row: i + 1,
    email: column(record, 'email'),
    name: column(record, 'name'),
    role: column(record, 'role'),
  }));
}
