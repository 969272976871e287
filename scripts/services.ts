// Makes sure PostgreSQL and Redis answer at the configured URLs; on loopback, starts private instances under
// .data/ from the system's binaries (installing them with apt-get on Debian as root when missing). With
// `--browser`, also makes sure Debian's Chromium is there for the console's browser tests. `ensure` (what the test
// commands run) also makes sure PgBouncer is installed, for the connection-pooler test set.
import '../shared/node-runtime.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfigOrExit } from '../shared/config/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, '.data');
const loopback = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const say = (msg: string) => process.stderr.write(`[services] ${msg}\n`);

export function reachable(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host.replace(/^\[|\]$/g, ''), port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitFor(host: string, port: number, what: string, seconds = 30) {
  for (let i = 0; i < seconds * 5; i++) {
    if (await reachable(host, port, 500)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not start listening on ${host}:${port} within ${seconds}s`);
}

const isRoot = () => process.getuid?.() === 0;
const hasApt = () => existsSync('/usr/bin/apt-get');
let aptUpdated = false;

function aptInstall(pkg: string, why: string) {
  if (!isRoot() || !hasApt()) {
    throw new Error(
      `${why} is not installed. Install it, e.g.: sudo apt-get install -y --no-install-recommends ${pkg}`,
    );
  }
  say(`${why} is not installed; installing the Debian package(s) "${pkg}" with apt-get (about 10-60 s)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    aptUpdated = true;
  }
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...pkg.split(' ')], {
    stdio: 'inherit',
    env,
  });
}

function postgresBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : undefined;
}

function asPostgresUser(cmd: string, args: string[]) {
  if (!isRoot()) return execFileSync(cmd, args, { stdio: 'inherit' });
  return execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'inherit' });
}

async function ensurePostgres(databaseUrl: string) {
  const url = new URL(databaseUrl);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 5432);
  if (await reachable(host, port)) return;
  if (!loopback.has(host)) throw new Error(`PostgreSQL is not reachable at ${host}:${port} (DATABASE_URL)`);
  let bin = postgresBinDir();
  if (!bin) {
    aptInstall('postgresql', 'PostgreSQL');
    bin = postgresBinDir();
    if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql after install');
  }
  const dir = path.join(dataDir, 'postgres');
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    say(`initialising a private PostgreSQL cluster in ${dir}`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (isRoot()) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
    }
    asPostgresUser(path.join(bin, 'initdb'), ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  }
  say(`starting a private PostgreSQL on ${host}:${port} (data in ${dir})`);
  asPostgresUser(path.join(bin, 'pg_ctl'), [
    '-D',
    dir,
    '-l',
    path.join(dir, 'server.log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    '-w',
    'start',
  ]);
  await waitFor('127.0.0.1', port, 'PostgreSQL');
}

async function ensureRedis(redisUrl: string) {
  const url = new URL(redisUrl);
  const host = url.hostname || '127.0.0.1';
  const port = Number(url.port || 6379);
  if (await reachable(host, port)) return;
  if (!loopback.has(host)) throw new Error(`Redis is not reachable at ${host}:${port} (REDIS_URL)`);
  const which = spawnSync('sh', ['-c', 'command -v redis-server']);
  if (which.status !== 0) aptInstall('redis-server', 'Redis');
  const dir = path.join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  say(`starting a private Redis on 127.0.0.1:${port} (nothing persisted)`);
  execFileSync('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'yes',
    '--dir',
    dir,
    '--logfile',
    path.join(dir, 'redis.log'),
  ]);
  await waitFor('127.0.0.1', port, 'Redis');
}

/** The browser the console's tests drive (Debian's package; its own downloads cannot work offline). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

export function ensureChromium(): string {
  if (!existsSync(CHROMIUM_PATH)) {
    // A font too: without one, headless pages render text as empty boxes in screenshots.
    aptInstall('chromium fonts-dejavu-core', 'Chromium (for the browser tests)');
    if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} after install`);
  }
  return CHROMIUM_PATH;
}

export const PGBOUNCER_PATH = '/usr/sbin/pgbouncer';

/** PgBouncer for the connection-pooler test set (test/operations/pgbouncer.test.ts), which starts its own. */
export function ensurePgBouncer(): string {
  if (!existsSync(PGBOUNCER_PATH)) {
    aptInstall('pgbouncer', 'PgBouncer (for the connection-pooler tests)');
    if (!existsSync(PGBOUNCER_PATH)) throw new Error(`PgBouncer not found at ${PGBOUNCER_PATH} after install`);
  }
  return PGBOUNCER_PATH;
}

export async function ensureServices(config: { DATABASE_URL: string; REDIS_URL: string }) {
  await ensurePostgres(config.DATABASE_URL);
  await ensureRedis(config.REDIS_URL);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'ensure') {
  const config = loadConfigOrExit();
  const browser = process.argv.includes('--browser');
  ensureServices(config)
    .then(() => {
      say('PostgreSQL and Redis are reachable');
      say(`PgBouncer is at ${ensurePgBouncer()}`);
      if (browser) say(`Chromium is at ${ensureChromium()}`);
    })
    .catch((err: Error) => {
      say(err.message);
      process.exit(1);
    });
}
