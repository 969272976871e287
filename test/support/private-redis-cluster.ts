// A private 3-master Redis Cluster on loopback (no replicas) from the system's redis-server, for tests that run
// ockhub on a cluster: three cluster-enabled servers in a temp folder, joined and given every slot by
// `redis-cli --cluster create`, torn down (killed, folder removed) by dispose().
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { waitUntil } from './harness.js';
import { freePort } from './loopback-ports.js';

const run = promisify(execFile);

export class PrivateRedisCluster {
  private constructor(
    readonly ports: number[],
    readonly dir: string,
    private readonly children: ChildProcess[],
  ) {}

  static async start(masters = 3): Promise<PrivateRedisCluster> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ockhub-redis-cluster-'));
    const ports: number[] = [];
    for (let i = 0; i < masters; i++) ports.push(await freePort());
    const children = ports.map((port) =>
      spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--dir', dir],
        ],
        { stdio: 'ignore' },
      ),
    );
    const cluster = new PrivateRedisCluster(ports, dir, children);
    try {
      await waitUntil(
        async () => (await Promise.all(ports.map((p) => cluster.cli(p, 'ping')))).every((r) => r === 'PONG'),
        10_000,
        50,
      );
      await run('redis-cli', [
        '--cluster',
        'create',
        ...ports.map((p) => `127.0.0.1:${p}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ]);
      // Every node must agree that all slots are served before a client connects.
      await waitUntil(
        async () =>
          (await Promise.all(ports.map((p) => cluster.cli(p, 'cluster', 'info')))).every((info) =>
            info.includes('cluster_state:ok'),
          ),
        20_000,
        100,
      );
      return cluster;
    } catch (err) {
      await cluster.dispose();
      throw err;
    }
  }

  /** REDIS_CLUSTER_NODES for ockhub: every master as a seed. */
  get nodes(): string {
    return this.ports.map((p) => `127.0.0.1:${p}`).join(',');
  }

  /** Runs redis-cli against one node; '' when it does not answer. */
  async cli(port: number, ...args: string[]): Promise<string> {
    try {
      const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args]);
      return stdout.trim();
    } catch {
      return '';
    }
  }

  /** Keys held by each master (DBSIZE), in port order. */
  async keysPerNode(): Promise<number[]> {
    return Promise.all(this.ports.map(async (p) => Number(await this.cli(p, 'dbsize'))));
  }

  async dispose() {
    await Promise.all(
      this.children.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        return exited;
      }),
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
