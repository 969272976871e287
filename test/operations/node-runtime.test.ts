// The runtime: every npm script runs on the Node 24 of the pinned `node` package, even with the machine's older Node
// first on the PATH, and an entry point started by hand on an older Node refuses to run (exit 78, a clear message)
// before it touches anything.
import { type SpawnOptions, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { inheritedEnv } from '../../shared/config/index.js';
import { MIN_NODE_MAJOR, unsupportedNodeReason } from '../../shared/node-runtime.js';
import { repoRoot, testEnv } from '../support/harness.js';

const major = (version: string) => Number.parseInt(version.replace(/^v/, ''), 10);
const pinnedNode = path.join(repoRoot, 'node_modules', '.bin', 'node');

function run(command: string, args: string[], options: SpawnOptions = {}) {
  const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The PATH of a machine whose own Node comes first: this run's PATH without any node_modules/.bin folder. */
function systemPath(): string {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir && !dir.includes(`node_modules${path.sep}.bin`))
    .join(path.delimiter);
}

function executablesNamedNode(pathList: string): string[] {
  const found: string[] = [];
  for (const dir of [...pathList.split(path.delimiter), '/usr/bin', '/usr/local/bin']) {
    const file = path.join(dir, 'node');
    try {
      accessSync(file, constants.X_OK);
      if (!found.includes(file)) found.push(file);
    } catch {
      // no node there
    }
  }
  return found;
}

/**
 * A Node older than the minimum: the machine's own (Node 20 on the project's machines) when it has one; otherwise
 * the pinned Node made to report 20.19.0 before any module loads, so the refusal is still proven.
 */
async function olderNode(): Promise<{ execPath: string; preload: string[]; version: string }> {
  for (const candidate of executablesNamedNode(systemPath())) {
    const { stdout } = await run(candidate, ['-p', 'process.versions.node'], {
      env: inheritedEnv({ NODE_OPTIONS: '' }),
    });
    const version = stdout.trim();
    if (major(version) < MIN_NODE_MAJOR) return { execPath: candidate, preload: [], version };
  }
  const pretend = "Object.defineProperty(process.versions, 'node', { value: '20.19.0' })";
  return {
    execPath: pinnedNode,
    preload: ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`],
    version: '20.19.0',
  };
}

describe('the Node runtime', () => {
  it('runs this test run, and so every child it spawns with process.execPath, on Node 24 or later', () => {
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(MIN_NODE_MAJOR);
    expect(MIN_NODE_MAJOR).toBe(24);
  });

  it('puts the pinned Node first on the PATH of npm scripts, ahead of the machine’s own', async () => {
    const env = inheritedEnv({ NODE_OPTIONS: '', PATH: systemPath() });
    const { code, stdout } = await run('npm', ['run', '--silent', 'env'], { env });
    expect(code).toBe(0);
    const scriptPath = /^PATH=(.*)$/m.exec(stdout)?.[1] ?? '';
    const first = executablesNamedNode(scriptPath)[0] as string;
    expect(path.resolve(first)).toBe(pinnedNode);
    const version = await run(first, ['-p', 'process.versions.node'], { env });
    expect(major(version.stdout.trim())).toBeGreaterThanOrEqual(MIN_NODE_MAJOR);
  });

  it('runs tsx (how the npm scripts start the API, workers and scripts) on Node 24', async () => {
    // tsx's `#!/usr/bin/env node` resolves through the PATH that npm gives its scripts and `npm exec`.
    const env = inheritedEnv({ NODE_OPTIONS: '', PATH: systemPath() });
    const { code, stdout } = await run('npm', ['exec', '--', 'tsx', '-e', 'console.log(process.versions.node)'], {
      env,
    });
    expect(code).toBe(0);
    expect(major(stdout.trim())).toBeGreaterThanOrEqual(MIN_NODE_MAJOR);
  });

  it('stops an entry point started on an older Node with exit code 78 and says why', async () => {
    const old = await olderNode();
    expect(major(old.version)).toBeLessThan(MIN_NODE_MAJOR);
    const env = inheritedEnv({ NODE_OPTIONS: '', ...testEnv() });
    for (const entry of ['api/server.ts', 'workers/main.ts', 'scripts/release.ts']) {
      const { code, stderr } = await run(old.execPath, [...old.preload, '--import', 'tsx', entry], { env });
      expect({ entry, code }).toEqual({ entry, code: 78 });
      expect(stderr).toContain(`ockhub needs Node.js 24 or later; this is Node.js ${old.version}`);
    }
  });

  it('names the versions it accepts', () => {
    expect(unsupportedNodeReason('20.20.2')).toContain('needs Node.js 24 or later');
    expect(unsupportedNodeReason('v22.19.0')).toContain('this is Node.js v22.19.0');
    expect(unsupportedNodeReason('24.0.0')).toBeUndefined();
    expect(unsupportedNodeReason('26.10.0')).toBeUndefined();
    expect(unsupportedNodeReason('not-a-version')).toContain('needs Node.js 24');
  });
});
