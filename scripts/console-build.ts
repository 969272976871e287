// Builds the web console (console/ → console/dist) when its build is missing or any file it was built from has
// changed since (console/dist/build-inputs.json lists them with size and modification time). `npm start` and the
// browser tests call this; `npm run build` always builds.
import '../shared/node-runtime.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_INPUTS_FILE, type BuildInput, describeInput } from '../console/build/build-inputs.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(root, 'console', 'dist');

/** Why the console must be (re)built, or undefined when its build is up to date. */
export function staleReason(): string | undefined {
  const listFile = path.join(distDir, BUILD_INPUTS_FILE);
  if (!existsSync(path.join(distDir, 'index.html')) || !existsSync(listFile)) return 'no build yet';
  let inputs: BuildInput[];
  try {
    inputs = JSON.parse(readFileSync(listFile, 'utf8')) as BuildInput[];
  } catch {
    return 'unreadable build-inputs.json';
  }
  for (const input of inputs) {
    const now = describeInput(input.file);
    if (!now) return `${input.file} is gone`;
    if (now.size !== input.size || now.mtimeMs !== input.mtimeMs) return `${input.file} changed`;
  }
  return undefined;
}

/**
 * Always a production build: Vite keeps a NODE_ENV it finds set (a test runner's `test`, `development`), and React's
 * development build would then be bundled, half again as large and over the hub's size limit.
 */
export async function buildConsole(): Promise<void> {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(root, 'console', 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Builds only when stale; says what it did. */
export async function ensureConsoleBuilt(say: (msg: string) => void): Promise<void> {
  const reason = staleReason();
  if (!reason) {
    say('web console build is up to date');
    return;
  }
  say(`building the web console (${reason}) …`);
  const started = Date.now();
  await buildConsole();
  say(`web console built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const say = (msg: string) => process.stdout.write(`[console] ${msg}\n`);
  const run = process.argv[2] === 'ensure' ? ensureConsoleBuilt(say) : buildConsole();
  run.catch((err: Error) => {
    say(`build failed: ${err.message}`);
    process.exit(1);
  });
}
