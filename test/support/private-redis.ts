// A private redis-server on its own port, for tests that stop and restart Redis (never the machine's shared one).
// Without persistence a restart starts empty; with `appendOnly` every write is fsynced to an AOF in a private
// folder before Redis answers, so a SIGKILLed Redis comes back with every acknowledged write.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from './harness.js';
import { freePort, isListening } from './loopback-ports.js';

export type PrivateRedisOptions = { appendOnly?: boolean };

export class PrivateRedis {
  private child: ChildProcess | undefined;
  /** The AOF folder (appendOnly only); kept across restarts, removed by dispose(). */
  readonly dir: string | undefined;

  constructor(
    readonly port: number,
    options: PrivateRedisOptions = {},
  ) {
    this.dir = options.appendOnly ? mkdtempSync(path.join(os.tmpdir(), 'ockhub-redis-')) : undefined;
  }

  static async start(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), options);
    await redis.start();
    return redis;
  }

  get url() {
    return `redis://127.0.0.1:${this.port}/0`;
  }

  async start() {
    const persistence = this.dir
      ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.dir]
      : ['--appendonly', 'no'];
    this.child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', ...persistence],
      {
        stdio: 'ignore',
      },
    );
    await waitUntil(() => isListening(this.port), 10_000, 50);
  }

  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    await waitUntil(async () => !(await isListening(this.port)), 5_000, 50);
  }

  /** Freezes the server (SIGSTOP): connections stay open and nothing is answered, as with a hung Redis. */
  pause() {
    this.child?.kill('SIGSTOP');
  }

  resume() {
    this.child?.kill('SIGCONT');
  }

  /** Stops Redis and removes its AOF folder. */
  async dispose() {
    await this.stop();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}
