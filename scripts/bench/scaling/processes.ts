// The scaling benchmark's API and worker processes: the repository's scripts as children, each resolved with its
// output once a line matches `ready`.
import { type ChildProcess, spawn } from 'node:child_process';
import { inheritedEnv } from '../../../shared/config/index.js';

export function scalingProcesses(env: Record<string, string>) {
  const childEnv = (extra: Record<string, string>) =>
    inheritedEnv({ ...env, NODE_OPTIONS: '', LOG_LEVEL: 'info', ...extra });

  /** Starts a process and resolves with it and its output once `ready` matched. */
  function startProcess(
    script: string,
    extra: Record<string, string>,
    ready: RegExp,
  ): Promise<{ child: ChildProcess; output: string }> {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      env: childEnv(extra),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    return new Promise((resolve, reject) => {
      let seen = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        if (seen === 'ready') return;
        seen += chunk.toString();
        if (ready.test(seen)) {
          resolve({ child, output: seen });
          seen = 'ready';
        }
      });
      child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    });
  }

  /** `count` API processes on ports of their own; their origins for the round-robin load. */
  async function startApis(count: number) {
    const started = await Promise.all(
      Array.from({ length: count }, () =>
        startProcess('api/server.ts', { PORT: '0' }, /API listening on http:\/\/localhost:\d+/),
      ),
    );
    return {
      apis: started.map((s) => s.child),
      origins: started.map((s) => `http://127.0.0.1:${/localhost:(\d+)/.exec(s.output)?.[1]}`),
    };
  }

  /** `count` worker processes running every queue. */
  async function startWorkers(count: number) {
    const started = await Promise.all(
      Array.from({ length: count }, () => startProcess('workers/main.ts', {}, /worker ready/)),
    );
    return started.map((s) => s.child);
  }

  return { startApis, startWorkers };
}

export async function stopAll(children: ChildProcess[]) {
  await Promise.all(
    children.map(
      (c) =>
        new Promise((r) => {
          if (c.exitCode !== null) return r(null);
          c.once('exit', r);
          c.kill('SIGTERM');
        }),
    ),
  );
}
