// A benchmark's positional arguments (`npx tsx scripts/bench/<name>.ts [a] [b] …`), read before it makes a scratch
// database or starts a process: `--help` (or `-h`) prints its usage and opening comment and exits 0; a count that is
// not a positive integer (a duration: not a positive number), a missing leading argument, or one too many, stops it
// with exit code 2 naming the argument. Before, `--help` ran the benchmark with NaN figures until it failed midway, and
// a fraction of a count (0.5 workers) left it waiting forever.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** An argument's name, as the usage line shows it, its value when not given, and whether it may be a fraction (a
 * duration) rather than a count. */
export type BenchArg = readonly [name: string, fallback: number, kind?: 'count' | 'duration'];

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
  return benchCommand(moduleUrl, [], args, argv).values;
}

/** As benchArgs, after `leading` required arguments that are not numbers (a tool's checkouts), returned as given. */
export function benchCommand<const A extends readonly BenchArg[]>(
  moduleUrl: string,
  leading: readonly string[],
  args: A,
  argv = process.argv.slice(2),
): { leading: string[]; values: { [K in keyof A]: number } } {
  const file = fileURLToPath(moduleUrl);
  const usage = `usage: npx tsx scripts/bench/${path.basename(file)} ${[
    ...leading.map((name) => `<${name}>`),
    ...args.map(([name, d]) => `[${name}=${d}]`),
  ].join(' ')}`;
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${usage}\n\n${openingComment(file)}\n`);
    process.exit(0);
  }
  const max = leading.length + args.length;
  const problems = argv.length > max ? [`takes at most ${max} argument(s), got ${argv.length}`] : [];
  leading.forEach((name, i) => {
    if (!argv[i]?.trim()) problems.push(`${name} is required`);
  });
  const values = args.map(([name, fallback, kind = 'count'], i) => {
    const given = argv[leading.length + i];
    if (given === undefined) return fallback;
    const value = Number(given);
    if (given.trim() === '' || !Number.isFinite(value) || value <= 0) {
      problems.push(
        `${name} must be a positive ${kind === 'count' ? 'integer' : 'number'} (got ${JSON.stringify(given)})`,
      );
    } else if (kind === 'count' && !Number.isInteger(value)) {
      problems.push(`${name} must be a positive integer (got ${JSON.stringify(given)})`);
    }
    return value;
  });
  if (problems.length > 0) {
    process.stderr.write(`${problems.join('\n')}\n${usage}\n`);
    process.exit(2);
  }
  return { leading: argv.slice(0, leading.length), values: values as { [K in keyof A]: number } };
}
