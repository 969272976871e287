// Prints the reliability suite's figures as one table: one row per fault test, from the JSON Lines file its tests
// wrote under .data/reliability/ (the newest run by default; `--run=<id>` or a file path picks another).
// npm run test:reliability prints it at the end (test/reliability/global-teardown.mjs).
import '../shared/node-runtime.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const figuresDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '.data', 'reliability');

export const figuresFileOf = (run: string) => path.join(figuresDir, `figures-${run}.jsonl`);

const columns: [key: string, title: string][] = [
  ['jobsAtRisk', 'jobs at risk'],
  ['jobsLost', 'jobs lost'],
  ['doubleEffects', 'double effects'],
  ['redeliveries', 'redeliveries'],
  ['undercharged', 'undercharged USD'],
  ['unexpected5xx', '5xx (not 503)'],
  ['hangs', 'hangs'],
  ['answered503', '503s'],
  ['requeueSeconds', 'requeue s'],
  ['apiRecoverySeconds', 'API recovery s'],
  ['workerRecoverySeconds', 'worker recovery s'],
  ['requests', 'requests'],
  ['answered5xx', '5xx'],
  ['runs', 'runs'],
  ['operations', 'operations'],
  ['violations', 'violations'],
];

function newestFile(): string | undefined {
  if (!existsSync(figuresDir)) return undefined;
  return readdirSync(figuresDir)
    .filter((f) => /^figures-.+\.jsonl$/.test(f))
    .map((f) => path.join(figuresDir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

function table(rows: Record<string, string | number>[]): string {
  const shown = columns.filter(([key]) => rows.some((r) => r[key] !== undefined));
  const header = ['test', ...shown.map(([, title]) => title)];
  const body = rows.map((r) => [String(r.test), ...shown.map(([key]) => (r[key] === undefined ? '' : String(r[key])))]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] as string).length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...body.map(line)].join('\n');
}

/** One table per kind of test (faults, properties, fuzz), each with only the columns its rows fill. */
export function reliabilityTable(file: string): string {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string | number>)
    .sort((a, b) => String(a.test).localeCompare(String(b.test)));
  const kindOf = (test: string) => (/^(Property|Fuzz):/.exec(test)?.[1] ?? 'Fault').toLowerCase();
  const kinds = [...new Set(rows.map((r) => kindOf(String(r.test))))];
  return kinds.map((kind) => table(rows.filter((r) => kindOf(String(r.test)) === kind))).join('\n\n');
}

function main() {
  const arg = process.argv[2];
  const file = arg?.startsWith('--run=') ? figuresFileOf(arg.slice('--run='.length)) : (arg ?? newestFile());
  if (!file || !existsSync(file)) {
    process.stdout.write('No reliability figures recorded yet (npm run test:reliability writes them).\n');
    return;
  }
  process.stdout.write(
    `\nReliability figures (${path.relative(process.cwd(), file)}):\n\n${reliabilityTable(file)}\n\n`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
