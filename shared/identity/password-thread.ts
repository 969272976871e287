// Runs in a thread of the password pool (password-hasher.ts): derives one key with the synchronous functions, so
// the work stays on this thread and never takes a slot of libuv's pool from DNS, files and zlib.
import { scryptSync } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { type Algorithm, hashRawSync, type Version } from '@node-rs/argon2';
import { type KeyParams, MAX_KEY_MEMORY_BYTES } from './password-formats.js';

export type DeriveTask = { password: string; salt: Uint8Array; keyLength: number; params: KeyParams };
export type DerivedKey = { key: Uint8Array; ms: number };

/**
 * How much lower than the process this thread runs (added to the process's nice value, at most 19). A login's hash
 * is CPU for a few hundred ms that only its one caller waits for, while the process's main thread serves every other
 * request: the kernel should give the main thread the core first and the hash the time it leaves. (On the 2-core
 * machine it helped a little: docs/identity.md.)
 */
export const THREAD_NICE_INCREMENT = 10;

/** On Linux each thread has its own nice value, set through its thread id; elsewhere the thread keeps the process's. */
function lowerThisThreadsPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(threadId) && threadId > 0) {
      setPriority(threadId, Math.min(19, getPriority() + THREAD_NICE_INCREMENT));
    }
  } catch {
    // not Linux, or not permitted: the thread runs at the process's priority
  }
}
// Only in a pool thread: a module that merely reads THREAD_NICE_INCREMENT on the main thread must not lower it.
if (!isMainThread) lowerThisThreadsPriority();

// The package's enums are `const enum`s, which isolated modules cannot read: their values, spelled out.
const ARGON2ID = 2 as Algorithm;
const VERSION_0x13 = 1 as Version;

function derive({ password, salt, keyLength, params }: DeriveTask): Uint8Array {
  if (params.algorithm === 'scrypt') {
    return scryptSync(password, salt, keyLength, {
      N: params.N,
      r: params.r,
      p: params.p,
      maxmem: MAX_KEY_MEMORY_BYTES,
    });
  }
  return hashRawSync(password, {
    algorithm: ARGON2ID,
    version: VERSION_0x13,
    memoryCost: params.m,
    timeCost: params.t,
    parallelism: params.p,
    outputLen: keyLength,
    salt,
  });
}

/** The key, and how long it took (the pool's estimate of its wait, for Retry-After). */
export default function deriveKey(task: DeriveTask): DerivedKey {
  const started = performance.now();
  const key = derive(task);
  return { key, ms: performance.now() - started };
}
