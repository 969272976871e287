// The reliability run's teardown: the usual one (drops this run's databases), then the figures table of the run.
// Plain JS that imports only Node and the shared teardown (jest's globalTeardown runs outside its module system).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import baseTeardown from '../global-teardown.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default async function reliabilityTeardown(globalConfig) {
  await baseTeardown(globalConfig);
  const run = process.env.OCKHUB_TEST_RUN;
  if (!run) return;
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/reliability-report.ts', `--run=${run}`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}
