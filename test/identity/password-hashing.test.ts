// Password hashing on its bounded pool of threads (docs/identity.md, "Password hashing"): at most threads + queue
// hashes at once, the next refused with 503 Auth.Busy and Retry-After and counted in /metrics; hashes at older
// parameters keep verifying and are rewritten at today's by the next successful login.
import { randomBytes, scrypt } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { Piscina } from 'piscina';
import { accounts } from '../../shared/db/schema/index.js';
import { isAppError } from '../../shared/errors/app-error.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { CURRENT_PARAMS, encodeHash, MAX_KEY_MEMORY_BYTES, parseHash } from '../../shared/identity/password-formats.js';
import { createPasswordHasher } from '../../shared/identity/password-hasher.js';
import {
  type DerivedKey,
  type DeriveTask,
  type HashThreadData,
  type HashThreadPriority,
  THREAD_NICE_INCREMENT,
} from '../../shared/identity/password-thread.js';
import { threadModule } from '../../shared/threads/thread-module.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, uniqueEmail } from '../support/identity.js';

const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
const THREADS = 1;
const QUEUE_LIMIT = 2;
const PASSWORD = 'an-old-password-from-2025';
const CURRENT_FORMAT = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keyLength: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** A hash in the format this service wrote before argon2id, at the given scrypt parameters. */
async function legacyHash(password: string, N: number, r: number, p: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 32, { N, r, p, maxmem: MAX_KEY_MEMORY_BYTES });
  return encodeHash({ params: { algorithm: 'scrypt', N, r, p }, salt, key });
}

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    PASSWORD_HASH_THREADS: String(THREADS),
    PASSWORD_HASH_QUEUE_LIMIT: String(QUEUE_LIMIT),
    METRICS_TOKEN,
  });
});
afterAll(async () => {
  await h.close();
});

const login = (email: string, password: string) => h.http.post('/api/v1/auth/login').send({ email, password });
const storedHash = async (id: string) =>
  (await h.ctx.db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.id, id)))[0]?.hash;
const refusedCount = async () => {
  const res = await h.http.get('/metrics').set(bearer(METRICS_TOKEN));
  const line = res.text.split('\n').find((l) => l.startsWith('ockhub_password_hashes_refused_total '));
  return Number(line?.split(' ')[1] ?? Number.NaN);
};

describe('the bound on concurrent hashes', () => {
  it.each([
    [1, 2],
    [2, 3],
  ])(
    'with %i thread(s) and a queue of %i, refuses exactly one of threads + queue + 1 simultaneous hashes',
    async (threads, queueLimit) => {
      const hasher = createPasswordHasher({ threads, queueLimit });
      try {
        const outcomes = await Promise.allSettled(
          Array.from({ length: threads + queueLimit + 1 }, (_, i) => hasher.hash(`password-number-${i}`)),
        );
        const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
        expect(refused).toHaveLength(1);
        const [error] = refused;
        expect(isAppError(error) && [error.status, error.code]).toEqual([503, 'Auth.Busy']);
        expect(Number(error.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        const hashes = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
        expect(hashes).toHaveLength(threads + queueLimit);
        for (const hash of hashes) expect(hash).toMatch(CURRENT_FORMAT);
        // Once the queue has drained, hashing goes on as before.
        expect(await hasher.hash('after-the-burst')).toMatch(CURRENT_FORMAT);
      } finally {
        await hasher.close();
      }
    },
  );

  it('answers a login with 503 Auth.Busy and Retry-After in problem+json while the pool is full, and counts it in /metrics', async () => {
    const user = await createAccount(h.ctx, { email: uniqueEmail('busy'), name: 'Busy', password: PASSWORD });
    const before = await refusedCount();
    // Fill every thread and queue place with slow verifications (scrypt p=16: over half a second each).
    const slow = `scrypt$16384$8$16$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;
    let settled = 0;
    const busy = Array.from({ length: THREADS + QUEUE_LIMIT }, () =>
      h.ctx.passwords.verify('whatever-it-is', slow).finally(() => {
        settled++;
      }),
    );
    const res = await login(user.email, PASSWORD);
    // The premise: the login was refused while the slow ones were all still in the pool.
    expect(settled).toBe(0);
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.parse(res.text)).toMatchObject({ title: 'Auth.Busy', status: 503 });
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await Promise.all(busy)).map((v) => v.ok)).toEqual(busy.map(() => false));
    expect((await refusedCount()) - before).toBe(1);
    // With the pool free again, the same login succeeds.
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });
});

describe('hashes at older parameters', () => {
  it('logs in with a hash at the old scrypt N=2^17, r=8, p=1 and rewrites it as argon2id, once', async () => {
    const old = await legacyHash(PASSWORD, 2 ** 17, 8, 1);
    const user = await createAccount(h.ctx, { email: uniqueEmail('old'), name: 'Old', passwordHash: old });
    const res = await login(user.email, PASSWORD);
    expect(res.status).toBe(200);
    const upgraded = await storedHash(user.id);
    expect(upgraded).toMatch(CURRENT_FORMAT);
    expect(await h.ctx.passwords.verify(PASSWORD, upgraded as string)).toEqual({ ok: true, outdated: false });
    // The session issued with the old hash works, and the next login keeps the new hash as it is.
    expect((await h.http.get('/api/v1/auth/me').set(bearer(res.body.accessToken))).status).toBe(200);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    expect(await storedHash(user.id)).toBe(upgraded);
  });

  it('still answers 401 to a wrong password, for an old hash (left as it is) and a current one', async () => {
    const old = await legacyHash(PASSWORD, 2 ** 14, 8, 1);
    const oldUser = await createAccount(h.ctx, { email: uniqueEmail('old'), name: 'Old', passwordHash: old });
    const newUser = await createAccount(h.ctx, { email: uniqueEmail('new'), name: 'New', password: PASSWORD });
    for (const user of [oldUser, newUser]) {
      const res = await login(user.email, 'not-the-password');
      expect(res.status).toBe(401);
      expect(JSON.parse(res.text)).toMatchObject({ title: 'Auth.InvalidCredentials', status: 401 });
    }
    expect(await storedHash(oldUser.id)).toBe(old);
  });

  it('verifies what it does not recognise as no match, without asking a thread for it', async () => {
    const key = randomBytes(32).toString('base64');
    const phcSalt = randomBytes(16).toString('base64').replace(/=+$/, '');
    const phcKey = key.replace(/=+$/, '');
    const refused = [
      'plain-text-password',
      `scrypt$1000$8$1$${randomBytes(16).toString('base64')}$${key}`, // N not a power of two
      `scrypt$16384$8$1$${randomBytes(16).toString('base64')}$`, // no key: any password would "match" it
      `$argon2id$v=19$m=9999999,t=2,p=1$${phcSalt}$${phcKey}`, // more memory than a thread may hold
      `$argon2i$v=19$m=19456,t=2,p=1$${phcSalt}$${phcKey}`, // another argon2 variant
    ];
    for (const stored of refused) {
      expect(parseHash(stored)).toBeUndefined();
      expect(await h.ctx.passwords.verify(PASSWORD, stored)).toEqual({ ok: false, outdated: false });
    }
  });
});

type ThreadScheduling = { nice: number; policy: number };
const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

/** Each thread's nice value and scheduling policy (Linux: fields 19 and 41 of /proc/self/task/<tid>/stat). */
function threadScheduling(): Map<number, ThreadScheduling> {
  return new Map(
    readdirSync('/proc/self/task').map((tid) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [Number(tid), { nice: Number(fields[16]), policy: Number(fields[38]) }];
    }),
  );
}

/** The threads a pool's first hash started: those that were not there before it. */
async function hashingThreads(priority?: HashThreadPriority): Promise<ThreadScheduling[]> {
  const before = threadScheduling();
  const hasher = createPasswordHasher({ threads: 1, queueLimit: 2, ...(priority ? { priority } : {}) });
  try {
    await hasher.hash(PASSWORD);
    return [...threadScheduling()].filter(([tid]) => !before.has(tid)).map(([, thread]) => thread);
  } finally {
    await hasher.close();
  }
}

describe('priority', () => {
  const processNice = getPriority();
  const lowered = Math.min(19, processNice + THREAD_NICE_INCREMENT);

  it('runs the hashing thread as SCHED_IDLE by default, and leaves the main thread as it was', async () => {
    const started = await hashingThreads();
    expect(started).toContainEqual({ nice: lowered, policy: SCHED_IDLE });
    expect(threadScheduling().get(process.pid)).toEqual({ nice: processNice, policy: SCHED_OTHER });
    expect(getPriority()).toBe(processNice);
  });

  it("runs it at the process's nice + 10 with PASSWORD_HASH_PRIORITY=low", async () => {
    const started = await hashingThreads('low');
    expect(started).toContainEqual({ nice: lowered, policy: SCHED_OTHER });
    expect(started.some((t) => t.policy === SCHED_IDLE)).toBe(false);
  });
});

describe('pace', () => {
  // The module as the hasher finds it (beside password-hasher.ts), with the flags its thread needs under jest.
  const thread = threadModule(
    'password-thread',
    new URL('../../shared/identity/password-hasher.ts', import.meta.url).href,
  );
  const task = (): DeriveTask => ({ password: PASSWORD, salt: randomBytes(16), keyLength: 32, params: CURRENT_PARAMS });

  /** Two keys asked of one thread at once: the second waits for the first, then for the thread's rest. */
  async function restsBeforeEachKey(cpuShare: number): Promise<number[]> {
    const pool = new Piscina<DeriveTask, DerivedKey>({
      filename: thread.filename,
      ...(thread.execArgv ? { execArgv: thread.execArgv } : {}),
      maxThreads: 1,
      workerData: { priority: 'low', cpuShare } satisfies HashThreadData,
    });
    try {
      const keys = await Promise.all([pool.run(task()), pool.run(task())]);
      return keys.map((k) => k.restedMs);
    } finally {
      await pool.destroy();
    }
  }

  // A tenth of its core: the rest is nine times the key's time, so a loaded machine's delay in handing the thread its
  // second key (a round trip through the main thread) cannot outlast it, as it could the equal rest of half a core.
  it('rests between keys when a thread may take a tenth of its core, and answers the first key without resting', async () => {
    const [first, second] = await restsBeforeEachKey(0.1);
    expect(first).toBe(0);
    expect(second).toBeGreaterThan(0);
  });

  it('never rests at a whole core', async () => {
    expect(await restsBeforeEachKey(1)).toEqual([0, 0]);
  });
});

describe('closing', () => {
  it('stops the threads with the context and refuses hashing afterwards', async () => {
    const hasher = createPasswordHasher({ threads: 2, queueLimit: 2 });
    const hash = await hasher.hash(PASSWORD);
    expect((await hasher.verify(PASSWORD, hash)).ok).toBe(true);
    await hasher.close();
    await expect(hasher.hash(PASSWORD)).rejects.toThrow(/closed/);
  });
});
