// Writes dist/build-inputs.json: every repository file the build read (from Vite's module graph) with its size and
// modification time, so `npm start` and the browser tests rebuild the console only when one of them changed
// (scripts/console-build.ts).
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

export const BUILD_INPUTS_FILE = 'build-inputs.json';

const consoleDir = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = path.resolve(consoleDir, '..');

export type BuildInput = { file: string; size: number; mtimeMs: number };

export function describeInput(file: string): BuildInput | undefined {
  try {
    const stat = statSync(path.resolve(repoRoot, file));
    return { file, size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    return undefined;
  }
}

/** Files read besides the module graph: the page, static files, the build set-up and the locked dependencies. */
function fixedInputs(): string[] {
  const publicDir = path.join(consoleDir, 'public');
  const publicFiles = readdirSync(publicDir).map((f) => path.join(publicDir, f));
  const buildDir = path.join(consoleDir, 'build');
  const buildFiles = readdirSync(buildDir).map((f) => path.join(buildDir, f));
  return [
    path.join(consoleDir, 'index.html'),
    path.join(consoleDir, 'vite.config.ts'),
    path.join(consoleDir, 'tsconfig.json'),
    path.join(repoRoot, 'package-lock.json'),
    ...publicFiles,
    ...buildFiles,
  ];
}

export function buildInputs(): Plugin {
  return {
    name: 'ockhub-build-inputs',
    apply: 'build',
    generateBundle() {
      const files = new Set<string>();
      for (const id of this.getModuleIds()) {
        const file = id.split('?')[0] ?? '';
        if (!path.isAbsolute(file) || file.includes(`${path.sep}node_modules${path.sep}`)) continue;
        files.add(file);
      }
      for (const file of fixedInputs()) files.add(file);
      const inputs = [...files]
        .map((f) => describeInput(path.relative(repoRoot, f)))
        .filter((i): i is BuildInput => i !== undefined)
        .sort((a, b) => a.file.localeCompare(b.file));
      this.emitFile({ type: 'asset', fileName: BUILD_INPUTS_FILE, source: `${JSON.stringify(inputs, null, 1)}\n` });
    },
  };
}
