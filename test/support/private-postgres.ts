// A private PostgreSQL cluster on its own port and data folder under the system temp folder, for tests that stop
// and restart PostgreSQL (never the machine's shared server). Its binaries run as the `postgres` user when the
// tests run as root (PostgreSQL refuses to run as root); socket and log live in the data folder.
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ensureDatabase, runMigrations } from '../../shared/db/migrate.js';
import { freePort } from './loopback-ports.js';

const run = promisify(execFile);

function binDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(path.join(base, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (!versions[0]) throw new Error(`no PostgreSQL binaries under ${base}`);
  return path.join(base, versions[0], 'bin');
}

const isRoot = () => process.getuid?.() === 0;

async function asPostgres(program: string, args: string[]) {
  const bin = path.join(binDir(), program);
  return isRoot() ? run('runuser', ['-u', 'postgres', '--', bin, ...args]) : run(bin, args);
}

async function postgresIds() {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

export class PrivatePostgres {
  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  /** initdb (without fsync, ~1 s) and start. */
  static async start(): Promise<PrivatePostgres> {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ockhub-pg-'));
    if (isRoot()) {
      const { uid, gid } = await postgresIds();
      chownSync(dir, uid, gid);
    }
    await asPostgres('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const pg = new PrivatePostgres(await freePort(), dir);
    await pg.start();
    return pg;
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async start() {
    await asPostgres('pg_ctl', [
      '-D',
      this.dir,
      '-l',
      path.join(this.dir, 'server.log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1`,
      '-w',
      'start',
    ]);
  }

  /** `fast` disconnects every client and shuts down cleanly; `immediate` is a crash (recovery at the next start). */
  async stop(mode: 'fast' | 'immediate' = 'fast') {
    await asPostgres('pg_ctl', ['-D', this.dir, '-m', mode, '-w', 'stop']);
  }

  /** Creates a database with the project's migrations applied; returns its URL. */
  async migratedDatabase(name = 'ockhub'): Promise<string> {
    const url = this.url(name);
    await ensureDatabase(url);
    await runMigrations(url);
    return url;
  }

  /** Stops the server (if running) and removes its data folder. */
  async dispose() {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
