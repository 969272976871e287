// Entry point of the simulated provider process (`npm start` runs it; tests may too): reads its settings from the
// environment, listens on loopback and prints one ready line. Tests can also import startSimulatedProvider from here.
import { pathToFileURL } from 'node:url';
import { type SimulatorOptions, startSimulatedProvider } from './simulated-provider.js';

export { type SimulatedProvider, type SimulatorOptions, startSimulatedProvider } from './simulated-provider.js';

function numberFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    process.stderr.write(`${name} must be a non-negative integer, got "${raw}"\n`);
    process.exit(1);
  }
  return value;
}

export function optionsFromEnv(): SimulatorOptions {
  return {
    port: numberFromEnv('SIMULATED_PROVIDER_PORT'),
    videoDurationMs: numberFromEnv('SIMULATED_VIDEO_MS'),
    chunkDelayMs: numberFromEnv('SIMULATED_CHUNK_DELAY_MS'),
    slowChunkDelayMs: numberFromEnv('SIMULATED_SLOW_CHUNK_DELAY_MS'),
    apiKey: process.env.SIMULATED_PROVIDER_API_KEY || undefined,
  };
}

async function main() {
  const provider = await startSimulatedProvider(optionsFromEnv());
  process.stdout.write(`simulated provider listening on ${provider.url}\n`);
  const stop = () => void provider.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
