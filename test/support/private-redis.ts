// A private redis-server on its own port, for tests that stop and restart Redis (never the machine's shared one).
// Without persistence a restart starts empty; with `appendOnly` every write is fsynced to an AOF in a private
// folder before Redis answers, so a SIGKILLed Redis comes back with every acknowledged write; with `snapshots` it
// keeps RDB snapshots taken on demand (`snapshot`) and can come back from an older one (`restoreSnapshot`), as an
// operator restoring last hour's backup.
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { waitUntil } from './harness.js';
import { freePort, isListening } from './loopback-ports.js';

export type PrivateRedisOptions = { appendOnly?: boolean; snapshots?: boolean };

export class PrivateRedis {
  private child: ChildProcess | undefined;
  /** The AOF or snapshot folder (appendOnly or snapshots only); kept across restarts, removed by dispose(). */
  readonly dir: string | undefined;
  private readonly appendOnly: boolean;

  constructor(
    readonly port: number,
    options: PrivateRedisOptions = {},
  ) {
    this.appendOnly = options.appendOnly === true;
    this.dir =
      options.appendOnly || options.snapshots ? mkdtempSync(path.join(os.tmpdir(), 'ockhub-redis-')) : undefined;
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
    const persistence = !this.dir
      ? ['--appendonly', 'no']
      : this.appendOnly
        ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.dir]
        : ['--appendonly', 'no', '--dir', this.dir, '--dbfilename', 'dump.rdb'];
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

  /** Writes an RDB snapshot now (SAVE) and keeps a copy of it as `name` (snapshots only). */
  async snapshot(name: string) {
    const dir = this.snapshotDir();
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      await client.save();
    } finally {
      client.disconnect();
    }
    copyFileSync(path.join(dir, 'dump.rdb'), path.join(dir, `${name}.rdb`));
  }

  /** Kills Redis and starts it again from the snapshot `name`: every write since that snapshot is gone. */
  async restoreSnapshot(name: string) {
    const dir = this.snapshotDir();
    await this.stop();
    copyFileSync(path.join(dir, `${name}.rdb`), path.join(dir, 'dump.rdb'));
    await this.start();
  }

  private snapshotDir(): string {
    if (!this.dir || this.appendOnly) throw new Error('PrivateRedis: snapshots need { snapshots: true }');
    return this.dir;
  }

  /** Freezes the server (SIGSTOP): connections stay open and nothing is answered, as with a hung Redis. */
  pause() {
    this.child?.kill('SIGSTOP');
  }

  resume() {
    this.child?.kill('SIGCONT');
  }

  /** Stops Redis and removes its folder. */
  async dispose() {
    await this.stop();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Waits until a client of a restarted private Redis is connected again (a command first, so it tries at once). */
export async function reconnected(client: Redis): Promise<void> {
  await client.ping().catch(() => undefined);
  await new Promise<void>((resolve) => (client.status === 'ready' ? resolve() : client.once('ready', resolve)));
}
