// Password hashing on a dedicated pool of worker threads (piscina; why in docs/identity.md). Memory and CPU are
// bounded by design: at most `threads` keys are derived at once (19 MiB each at today's parameters), at most
// `queueLimit` more wait, and past that a hash is refused at once with 503 Auth.Busy and Retry-After (counted in
// /metrics), before anything else is done. The event loop only hands the work over and compares the keys.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Piscina } from 'piscina';
import { AppError } from '../errors/app-error.js';
import { recordPasswordHashRefused } from '../metrics/metrics.js';
import { threadModule } from '../threads/thread-module.js';
import {
  CURRENT_PARAMS,
  encodeHash,
  isCurrent,
  KEY_LENGTH,
  type KeyParams,
  parseHash,
  SALT_LENGTH,
} from './password-formats.js';
import type { DerivedKey, DeriveTask, HashThreadData, HashThreadPriority } from './password-thread.js';

/**
 * `priority`: how the threads are scheduled against the process's other threads (password-thread.ts, default idle);
 * `cpuShare`: the share of its core each thread may take, resting between keys (hashing-pace.ts, default 1).
 */
export type PasswordPoolLimits = {
  threads: number;
  queueLimit: number;
  priority?: HashThreadPriority;
  cpuShare?: number;
};

/** `outdated`: the stored hash is at older parameters, to be replaced now that the password is known. */
export type Verification = { ok: boolean; outdated: boolean };

export type PasswordHasher = {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<Verification>;
  /** A hash to verify against when the e-mail is unknown, so both failures cost the same. */
  decoyHash(): Promise<string>;
  close(): Promise<void>;
};

export const passwordHashingBusy = (retryAfterSeconds: number) =>
  new AppError('Auth.Busy', 503, 'Too many passwords are being checked at once: try again shortly (see Retry-After).', {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });

const thread = threadModule('password-thread', import.meta.url);
// Threads start on the first hash and stop after this long without one: a process that never hashes has none.
const IDLE_THREAD_MS = 30_000;

export function createPasswordHasher(
  limits: PasswordPoolLimits,
  onThreadError: (err: Error) => void = () => {},
): PasswordHasher {
  let pool: Piscina<DeriveTask, DerivedKey> | undefined;
  let closed = false;
  let inFlight = 0;
  // A running mean of one derivation, for Retry-After: the time the hashes ahead need to drain.
  let meanMs = 100;
  let decoy: Promise<string> | undefined;

  const started = () => {
    if (!pool) {
      pool = new Piscina<DeriveTask, DerivedKey>({
        filename: thread.filename,
        ...(thread.execArgv ? { execArgv: thread.execArgv } : {}),
        minThreads: 0,
        maxThreads: limits.threads,
        // The queue is bounded here, by `inFlight`, counting hashes whose thread is still starting too.
        maxQueue: Number.POSITIVE_INFINITY,
        idleTimeout: IDLE_THREAD_MS,
        // Logins can wait a few milliseconds more; requests served by the event loop should not.
        workerData: { priority: limits.priority ?? 'idle', cpuShare: limits.cpuShare ?? 1 } satisfies HashThreadData,
      });
      pool.on('error', onThreadError);
    }
    return pool;
  };

  async function derive(password: string, salt: Buffer, params: KeyParams, keyLength: number): Promise<Buffer> {
    if (closed) throw new Error('The password hasher is closed.');
    if (inFlight >= limits.threads + limits.queueLimit) {
      recordPasswordHashRefused();
      throw passwordHashingBusy(Math.max(1, Math.ceil((inFlight / limits.threads) * (meanMs / 1000))));
    }
    inFlight++;
    try {
      const task: DeriveTask = { password: password.normalize('NFKC'), salt, keyLength, params };
      const { key, ms } = await started().run(task);
      meanMs = 0.8 * meanMs + 0.2 * ms;
      return Buffer.from(key.buffer, key.byteOffset, key.byteLength);
    } finally {
      inFlight--;
    }
  }

  async function hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_LENGTH);
    const key = await derive(password, salt, CURRENT_PARAMS, KEY_LENGTH);
    return encodeHash({ params: CURRENT_PARAMS, salt, key });
  }

  return {
    hash,
    async verify(password, stored) {
      const parsed = parseHash(stored);
      if (!parsed) return { ok: false, outdated: false };
      const actual = await derive(password, parsed.salt, parsed.params, parsed.key.length);
      const ok = actual.length === parsed.key.length && timingSafeEqual(actual, parsed.key);
      return { ok, outdated: !isCurrent(parsed) };
    },
    decoyHash() {
      decoy ??= hash(randomBytes(16).toString('hex')).catch((err: unknown) => {
        decoy = undefined;
        throw err;
      });
      return decoy;
    },
    async close() {
      closed = true;
      await pool?.destroy();
    },
  };
}
