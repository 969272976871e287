// A benchmark's positional arguments (`npx tsx scripts/bench/<name>.ts [a] [b] …`), read before it makes a scratch
// database or starts a process: `--help` (or `-h`) prints its usage and opening comment and exits 0; an argument that
// is not a positive number, or one too many, stops it with exit code 2 naming the argument. Before, `--help` ran the
// benchmark with NaN figures until it failed midway.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** An argument's name, as the usage line shows it, and its value when not given. */
export type BenchArg = readonly [name: string, fallback: number];

/** The `//` comment lines a benchmark file opens with: what it measures, in its own words. */
export function openingComment(file: string): string {
  const lines: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('//')) break;
    lines.push(line.replace(/^\/\/ ?/, ''));
  }
  return lines.join('\n');
}

/** The arguments' values in order (`moduleUrl`: the benchmark's `import.meta.url`, for its name and comment). */
export function benchArgs<const A extends readonly BenchArg[]>(
  moduleUrl: string,
  args: A,
  argv = process.argv.slice(2),
): { [K in keyof A]: number } {
  const file = fileURLToPath(moduleUrl);
  const usage = `usage: npx tsx scripts/bench/${path.basename(file)} ${args.map(([name, d]) => `[${name}=${d}]`).join(' ')}`;
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n\n${openingComment(file)}\n`);
    process.exit(0);
  }
  const problems = argv.length > args.length ? [`takes at most ${args.length} argument(s), got ${argv.length}`] : [];
  const values = args.map(([name, fallback], i) => {
    const given = argv[i];
    if (given === undefined) return fallback;
    const value = Number(given);
    if (given.trim() === '' || !Number.isFinite(value) || value <= 0) {
      problems.push(`${name} must be a positive number (got ${JSON.stringify(given)})`);
    }
    return value;
  });
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n${usage}\n`);
    process.exit(2);
  }
  return values as { [K in keyof A]: number };
}
