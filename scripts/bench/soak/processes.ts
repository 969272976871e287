// The soak's processes: a Redis of its own, and the repository's scripts run as children with the probe loaded
// (probe.ts), each resolved once a line of its output matches.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { inheritedEnv } from '../../../shared/config/index.js';
import { freePort, isListening } from '../../../test/support/loopback-ports.js';

export type SoakChild = { name: string; proc: ChildProcess };

export function soakProcesses(intervalMs: number) {
  const scratch = mkdtempSync(join(tmpdir(), 'ockhub-soak-'));
  const children: SoakChild[] = [];

  /** Starts a script with the probe; resolves with the first group of `ready` once the output matches it. */
  function start(name: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<string> {
    const proc = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/bench/soak/probe.ts', ...args], {
      env: inheritedEnv({
        NODE_OPTIONS: '',
        ...env,
        SOAK_PROBE_FILE: probeFile(name),
        SOAK_PROBE_INTERVAL_MS: String(Math.min(intervalMs, 10_000)),
      }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push({ name, proc });
    return new Promise((resolve, reject) => {
      let out = '';
      proc.stdout?.on('data', (chunk: Buffer) => {
        if (out.length < 100_000) out += chunk.toString();
        const found = ready.exec(out);
        if (found) resolve(found[1] ?? '');
      });
      proc.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready:\n${out}`)));
    });
  }

  /** Where a child's probe writes its heap and event-loop delay. */
  const probeFile = (name: string) => join(scratch, `${name}.json`);

  /** A Redis of its own, so used_memory and key counts are this run's alone (the shared one serves other runs). */
  async function startRedis() {
    const port = await freePort();
    const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    // Connect once it listens: a client whose first connect failed goes on reconnecting by itself, and a second
    // connect() then throws "already connecting" (seen in CI when the machine was slow to start the server).
    for (let tries = 0; !(await isListening(port)); tries++) {
      if (server.exitCode !== null) throw new Error(`redis-server exited with ${server.exitCode} before listening`);
      if (tries > 200) throw new Error(`redis-server did not listen on port ${port} within 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const url = `redis://127.0.0.1:${port}`;
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: null });
    await redis.connect();
    return { url, redis, server };
  }

  /** Stops every child still running and waits for it. */
  async function stopChildren() {
    for (const { proc } of children) if (proc.exitCode === null) proc.kill('SIGTERM');
    await Promise.all(
      children.map(({ proc }) => (proc.exitCode === null ? new Promise((r) => proc.once('exit', r)) : null)),
    );
  }

  return {
    scratch,
    children,
    start,
    probeFile,
    startRedis,
    freePort,
    stopChildren,
    removeScratch: () => rmSync(scratch, { recursive: true, force: true }),
  };
}
