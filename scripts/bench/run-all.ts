// `npm run bench`: runs every benchmark of scripts/bench (each file that exports nothing; modules that export are
// helpers) one after another as child processes, shows their output, then prints one table of the headline figures
// they report (headline.ts) against their in-run baselines. A benchmark that reports none gets a row saying so.
import '../../shared/node-runtime.js';
import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inheritedEnv } from '../../shared/config/index.js';
import { type ParsedHeadline, parseHeadlines } from './headline.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(benchDir, '../..');
const only = process.argv.slice(2);
/** A benchmark still running after this is stopped and counted as failed. */
const BENCH_TIMEOUT_MS = 10 * 60_000;

async function benchmarks(): Promise<string[]> {
  // The soak (soak*.ts) is its own run with its own verdict (`npm run soak`), not a benchmark with a headline.
  const files = (await readdir(benchDir))
    .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts' && !f.startsWith('soak'))
    .sort();
  const found: string[] = [];
  for (const file of files) {
    const source = await readFile(path.join(benchDir, file), 'utf8');
    if (!/^export /m.test(source)) found.push(file);
  }
  if (only.includes('--help') || only.includes('-h')) {
    console.log(`usage: npm run bench [-- <part of a benchmark's file name> …]\n\nbenchmarks: ${found.join(', ')}`);
    process.exit(0);
  }
  const chosen = only.length > 0 ? found.filter((f) => only.some((o) => f.includes(o))) : found;
  if (chosen.length === 0) {
    console.error(`no benchmark's file name contains ${only.join(' or ')}; the benchmarks: ${found.join(', ')}`);
    process.exit(2);
  }
  return chosen;
}

function run(file: string): Promise<{ code: number | null; output: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(benchDir, file)], {
      cwd: repoRoot,
      env: inheritedEnv({ NODE_OPTIONS: '' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const show = (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split('\n')) {
        if (line && !line.startsWith('BENCH-HEADLINE')) process.stdout.write(`  [${file}] ${line}\n`);
      }
    };
    const timer = setTimeout(() => {
      output += `\nstopped after ${BENCH_TIMEOUT_MS / 1000} s\n`;
      child.kill('SIGKILL');
    }, BENCH_TIMEOUT_MS);
    child.stdout.on('data', show);
    child.stderr.on('data', show);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output, seconds: (Date.now() - started) / 1000 });
    });
  });
}

const format = (n: number) => (Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2));

const rows: ParsedHeadline[] = [];
const silent: string[] = [];
const failed: string[] = [];
for (const file of await benchmarks()) {
  console.log(`▶ ${file}`);
  const result = await run(file);
  const headlines = parseHeadlines(file.replace(/\.ts$/, ''), result.output);
  if (result.code !== 0) failed.push(`${file} (exit ${result.code})`);
  else if (headlines.length === 0) silent.push(file);
  rows.push(...headlines);
  console.log(`  done in ${result.seconds.toFixed(1)} s\n`);
}

const table = [
  ['benchmark', 'figure', 'value', 'baseline', 'ratio'],
  ...silent.map((file) => [file.replace(/\.ts$/, ''), 'no headline reported (see its output above)', '', '', '']),
  ...rows.map((r) => [
    r.bench,
    r.figure,
    `${format(r.value)} ${r.unit}`,
    `${format(r.baseline)} ${r.unit} (${r.baselineName})`,
    r.ratio.toFixed(3),
  ]),
];
const widths = table[0]?.map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length))) ?? [];
const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' │ ');
console.log(line(table[0] ?? []));
console.log(widths.map((w) => '─'.repeat(w)).join('─┼─'));
for (const row of table.slice(1)) console.log(line(row));
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
