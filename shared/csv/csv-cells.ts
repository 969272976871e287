// Writing CSV (RFC 4180) that is safe to open in a spreadsheet: every CSV the service writes goes through here.
// A text cell that begins with `=`, `+`, `-` or `@` (or a tab or carriage return) would be read by Excel, LibreOffice
// or Google Sheets as a formula, which can run commands or leak data when an Admin opens the file (OWASP "CSV
// injection"): such a cell gets a leading `'`, which spreadsheets show as text. Quoting is a few lines, so no
// library: csv-stringify would add a dependency for the quoting alone and escapes no formulas.

const formulaStart = /^[=+\-@\t\r]/;
const needsQuotes = /[",\r\n]/;

type Cell = string | number | null | undefined;

/**
 * One cell, quoted where RFC 4180 needs it; null and undefined are empty. Text is formula-escaped; numbers (and
 * strings the caller marks `number`, such as decimal money amounts that may begin with `-`) are written as they are.
 */
export function csvCell(value: Cell, kind: 'text' | 'number' = typeof value === 'number' ? 'number' : 'text'): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (kind === 'text' && formulaStart.test(text)) text = `'${text}`;
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row of already written cells, CRLF-terminated (RFC 4180). */
export const csvLine = (cells: string[]) => `${cells.join(',')}\r\n`;

/** A whole file: the header row, then one row per record. */
export function csvFile<T>(columns: readonly (keyof T & string)[], rows: readonly T[]): string {
  const line = (cells: Cell[]) => csvLine(cells.map((c) => csvCell(c)));
  return line([...columns]) + rows.map((row) => line(columns.map((c) => row[c] as Cell))).join('');
}
