// In production the seed never leaves an Admin with a known password: without a private ADMIN_PASSWORD of at least
// 12 characters it refuses to create one (exit 78, a message naming ADMIN_PASSWORD), and an Admin still holding
// the development password stops it until ADMIN_PASSWORD replaces that password. The real seed entry point runs as
// a child process against a fresh database.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { DEVELOPMENT_ADMIN_PASSWORD } from '../../shared/config/development-defaults.js';
import { inheritedEnv } from '../../shared/config/index.js';
import { createDb, type DbHandle } from '../../shared/db/client.js';
import { accounts } from '../../shared/db/schema/index.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createPasswordHasher } from '../../shared/identity/password-hasher.js';
import { repoRoot, testEnv } from '../support/harness.js';

const ADMIN_EMAIL = 'root@prod.ockhub.test';
const PRIVATE_PASSWORD = 'a-private-production-password';

let adminUrl: URL;
const created: string[] = [];
const passwords = createPasswordHasher({ threads: 1, queueLimit: 8 });
const verifyPassword = async (password: string, stored: string) => (await passwords.verify(password, stored)).ok;

/** A fresh, migrated database cloned from this run's template. */
async function freshDatabase(): Promise<{ url: string; handle: DbHandle }> {
  const base = new URL(testEnv().DATABASE_URL as string);
  const template = base.pathname.slice(1).replace(/_w\d+$/, '_tpl');
  const name = `${template.replace(/_tpl$/, '')}_seed_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${template}"`);
  } finally {
    await admin.end();
  }
  created.push(name);
  base.pathname = `/${name}`;
  return { url: base.toString(), handle: createDb(base.toString(), { max: 2 }) };
}

function runSeed(databaseUrl: string, extra: Record<string, string> = {}) {
  const env = testEnv({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    ADMIN_EMAIL,
    SECRET_KEY: 'a-long-private-production-secret',
    PUBLIC_BASE_URL: 'https://hub.example.test',
    UPSTREAM_MESSAGES_URL: 'https://messages.vendor.example',
    UPSTREAM_VIDEO_URL: 'https://video.vendor.example',
    UPSTREAM_SEARCH_URL: 'https://search.vendor.example',
    UPSTREAM_MESSAGES_KEY: 'messages-vendor-key',
    UPSTREAM_VIDEO_KEY: 'video-vendor-key',
    UPSTREAM_SEARCH_KEY: 'search-vendor-key',
    ...extra,
  });
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/seed.ts'], {
    cwd: repoRoot,
    // ADMIN_PASSWORD is left out unless the test gives it, whatever the environment of the test run holds.
    env: inheritedEnv({ NODE_OPTIONS: '', ADMIN_PASSWORD: undefined, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout.on('data', () => undefined);
  return new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, stderr })),
  );
}

const accountsIn = (handle: DbHandle) => handle.db.select().from(accounts);

beforeAll(() => {
  adminUrl = new URL(testEnv().DATABASE_URL as string);
  adminUrl.pathname = '/postgres';
});
afterAll(async () => {
  await passwords.close();
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  for (const name of created) await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.end();
});

describe('the production seed', () => {
  it.each([
    [
      'without ADMIN_PASSWORD',
      {},
      /ADMIN_PASSWORD: refusing to create the Admin account .*unset or the development default/,
    ],
    [
      'with the development password',
      { ADMIN_PASSWORD: DEVELOPMENT_ADMIN_PASSWORD },
      /unset or the development default/,
    ],
    ['with a password under 12 characters', { ADMIN_PASSWORD: 'eleven-char' }, /at least 12 characters/],
  ])(
    'refuses to create the Admin %s and creates no account',
    async (_label, extra, message) => {
      const { url, handle } = await freshDatabase();
      try {
        const { code, stderr } = await runSeed(url, extra);
        expect(code).toBe(78);
        expect(stderr).toMatch(message);
        expect(await accountsIn(handle)).toEqual([]);
      } finally {
        await handle.pool.end();
      }
    },
    60_000,
  );

  it('creates the Admin with a private ADMIN_PASSWORD, which is the only password it accepts', async () => {
    const { url, handle } = await freshDatabase();
    try {
      const { code, stderr } = await runSeed(url, { ADMIN_PASSWORD: PRIVATE_PASSWORD });
      expect(code).toBe(0);
      expect(stderr).toContain(`created Admin account ${ADMIN_EMAIL}`);
      const rows = await accountsIn(handle);
      expect(rows.map((r) => [r.email, r.roles.includes('Admin')])).toEqual([[ADMIN_EMAIL, true]]);
      const hash = rows[0]?.passwordHash as string;
      expect(await verifyPassword(PRIVATE_PASSWORD, hash)).toBe(true);
      expect(await verifyPassword(DEVELOPMENT_ADMIN_PASSWORD, hash)).toBe(false);
    } finally {
      await handle.pool.end();
    }
  }, 60_000);

  it('names the Admin accounts there are when a later run leaves ADMIN_EMAIL out, and runs once it names one', async () => {
    const { url, handle } = await freshDatabase();
    try {
      expect((await runSeed(url, { ADMIN_PASSWORD: PRIVATE_PASSWORD })).code).toBe(0);
      // The first run's ADMIN_EMAIL was given on its command line; the next deploy's environment has the default.
      const refused = await runSeed(url, { ADMIN_EMAIL: 'admin@ockhub.local' });
      expect(refused.code).toBe(78);
      expect(refused.stderr).toContain(`Admin accounts already exist (${ADMIN_EMAIL})`);
      expect(refused.stderr).toContain('set ADMIN_EMAIL to one of them');
      expect((await accountsIn(handle)).map((r) => r.email)).toEqual([ADMIN_EMAIL]);
      expect((await runSeed(url)).code).toBe(0);
    } finally {
      await handle.pool.end();
    }
  }, 90_000);

  it('stops while an existing Admin has the development password, and replaces it once ADMIN_PASSWORD is given', async () => {
    const { url, handle } = await freshDatabase();
    try {
      // An Admin left behind by a development seed of this database.
      await createAccount(
        { db: handle.db, passwords },
        { email: ADMIN_EMAIL, name: 'Administrator', password: DEVELOPMENT_ADMIN_PASSWORD, roles: ['Admin'] },
      );
      const refused = await runSeed(url);
      expect(refused.code).toBe(78);
      expect(refused.stderr).toMatch(/still has the development password/);
      const replaced = await runSeed(url, { ADMIN_PASSWORD: PRIVATE_PASSWORD });
      expect(replaced.code).toBe(0);
      expect(replaced.stderr).toContain('replaced its development password');
      const [row] = await accountsIn(handle);
      expect(await verifyPassword(DEVELOPMENT_ADMIN_PASSWORD, row?.passwordHash as string)).toBe(false);
      expect(await verifyPassword(PRIVATE_PASSWORD, row?.passwordHash as string)).toBe(true);
      // Later deploys need no ADMIN_PASSWORD: the Admin exists and its password is private.
      expect((await runSeed(url)).code).toBe(0);
    } finally {
      await handle.pool.end();
    }
  }, 90_000);
});
