// The soak's command-line flags (see scripts/bench/soak.ts), read once.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openingComment } from '../bench-args.js';

const options = {
  help: { type: 'boolean', short: 'h' },
  minutes: { type: 'string', default: '10' },
  interval: { type: 'string', default: '30' },
  warmup: { type: 'string' },
  clients: { type: 'string', default: '300' },
  rate: { type: 'string', default: '60' },
  concurrency: { type: 'string', default: '8' },
  'max-growth': { type: 'string', default: '1' },
} as const;

/** The flags as given; `--help` prints the soak's opening comment and exits 0, an unknown flag exits 2 saying so. */
function readFlags() {
  const soakFile = fileURLToPath(new URL('../soak.ts', import.meta.url));
  try {
    const { values } = parseArgs({ options });
    if (!values.help) return values;
    process.stdout.write(`usage: npm run soak -- [flags]\n\n${openingComment(soakFile)}\n`);
    process.exit(0);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\nusage: npm run soak -- [flags] (--help lists them)\n`);
    process.exit(2);
  }
}

const flags = readFlags();

const runMs = Number(flags.minutes) * 60_000;

export const soakFlags = {
  minutes: flags.minutes,
  interval: flags.interval,
  runMs,
  intervalMs: Number(flags.interval) * 1000,
  warmupMs: flags.warmup ? Number(flags.warmup) * 1000 : runMs / 4,
  clientCount: Number(flags.clients),
  rate: Number(flags.rate),
  concurrency: Number(flags.concurrency),
  maxGrowth: Number(flags['max-growth']),
};
