// A private PgBouncer (Debian's package) on a free loopback port in transaction pooling mode, in front of the
// PostgreSQL server a test uses. It runs in the foreground as a child process (as the `postgres` user when the
// tests run as root: PgBouncer refuses to run as root) and writes its config, user list and log to a temp folder.
import { type ChildProcess, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGBOUNCER_PATH, reachable } from '../../scripts/services.js';
import { freePort } from './loopback-ports.js';

const isRoot = () => process.getuid?.() === 0;

export type PoolerStats = { database: string; transactions: number; queries: number };

export class PrivatePgBouncer {
  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly child: ChildProcess,
  ) {}

  /** `upstream` is a postgres:// URL of the real server; every database on it is reachable through the pooler. */
  static async start(upstream: string, options: { poolSize?: number } = {}): Promise<PrivatePgBouncer> {
    const target = new URL(upstream);
    const user = decodeURIComponent(target.username || 'postgres');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ockhub-pgbouncer-'));
    const port = await freePort();
    const users = [...new Set([user, 'postgres'])].map((name) => `"${name}" ""`).join('\n');
    writeFileSync(path.join(dir, 'users.txt'), `${users}\n`);
    writeFileSync(
      path.join(dir, 'pgbouncer.ini'),
      [
        '[databases]',
        `* = host=${target.hostname} port=${target.port || 5432}`,
        '[pgbouncer]',
        'listen_addr = 127.0.0.1',
        `listen_port = ${port}`,
        'unix_socket_dir =',
        'auth_type = trust',
        `auth_file = ${path.join(dir, 'users.txt')}`,
        'pool_mode = transaction',
        `default_pool_size = ${options.poolSize ?? 10}`,
        'max_client_conn = 2000',
        'ignore_startup_parameters = extra_float_digits,options',
        `admin_users = ${user}`,
        `stats_users = ${user}`,
        `logfile = ${path.join(dir, 'pgbouncer.log')}`,
        '',
      ].join('\n'),
    );
    if (isRoot()) {
      const { uid, gid } = postgresIds();
      for (const file of ['', 'users.txt', 'pgbouncer.ini']) chownSync(path.join(dir, file), uid, gid);
    }
    const child = spawn(PGBOUNCER_PATH, [path.join(dir, 'pgbouncer.ini')], {
      stdio: 'ignore',
      ...(isRoot() ? postgresIds() : {}),
    });
    const bouncer = new PrivatePgBouncer(port, dir, child);
    for (let i = 0; i < 100 && child.exitCode === null; i++) {
      if (await reachable('127.0.0.1', port, 200)) return bouncer;
      await new Promise((r) => setTimeout(r, 100));
    }
    await bouncer.dispose();
    throw new Error(`pgbouncer did not listen on ${port}: ${bouncer.log()}`);
  }

  /** The same URL as `upstream`, through the pooler. */
  url(upstream: string): string {
    const through = new URL(upstream);
    through.hostname = '127.0.0.1';
    through.port = String(this.port);
    return through.toString();
  }

  log(): string {
    const file = path.join(this.dir, 'pgbouncer.log');
    return existsSync(file) ? readFileSync(file, 'utf8') : '';
  }

  /** Transactions and queries the pooler carried, per database, from its admin console (`SHOW STATS`). */
  async stats(user: string): Promise<PoolerStats[]> {
    const client = new pg.Client({
      host: '127.0.0.1',
      port: this.port,
      user,
      database: 'pgbouncer',
      // The admin console speaks only the simple query protocol.
      query_timeout: 5_000,
    });
    await client.connect();
    try {
      const { rows } = await client.query('SHOW STATS');
      return rows.map((r: Record<string, string>) => ({
        database: r.database as string,
        transactions: Number(r.total_xact_count),
        queries: Number(r.total_query_count),
      }));
    } finally {
      await client.end();
    }
  }

  async dispose() {
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      // SIGTERM: immediate shutdown (SIGINT would wait for every client to leave).
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (!uid || !gid) throw new Error('no postgres user: install PostgreSQL from Debian packages');
  return { uid: Number(uid), gid: Number(gid) };
}
