// The soak's command-line flags (see scripts/bench/soak.ts), read once.
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    interval: { type: 'string', default: '30' },
    warmup: { type: 'string' },
    clients: { type: 'string', default: '300' },
    rate: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '8' },
    'max-growth': { type: 'string', default: '1' },
  },
});

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
