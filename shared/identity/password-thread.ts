// Runs in a thread of the password pool (password-hasher.ts): derives one key with the synchronous functions, so
// the work stays on this thread and never takes a slot of libuv's pool from DNS, files and zlib.
import { execFileSync } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { isMainThread, workerData } from 'node:worker_threads';
import { type Algorithm, hashRawSync, type Version } from '@node-rs/argon2';
import { hashingPace } from './hashing-pace.js';
import { type KeyParams, MAX_KEY_MEMORY_BYTES } from './password-formats.js';

export type DeriveTask = { password: string; salt: Uint8Array; keyLength: number; params: KeyParams };
/** `ms`: the thread's time for the key, rest included; `restedMs`: the rest it took before starting it. */
export type DerivedKey = { key: Uint8Array; ms: number; restedMs: number };

export type HashThreadPriority = 'idle' | 'low';
/** What the pool hands each thread when it starts (piscina's `workerData`). */
export type HashThreadData = { priority: HashThreadPriority; cpuShare: number };

/**
 * How much lower than the process a `low` thread runs (added to the process's nice value, at most 19), and an
 * `idle` one where SCHED_IDLE cannot be set. A login's hash is CPU for tens of ms that only its one caller waits
 * for, while the process's main thread serves every other request: the main thread should have the core first.
 */
export const THREAD_NICE_INCREMENT = 10;

/**
 * Linux keeps a scheduling policy and a nice value per thread, set through the thread's id. `idle` puts the thread
 * in SCHED_IDLE, through util-linux's `chrt` (Node has no call for it): it runs only on time no other thread wants,
 * and any other thread that wakes takes its core at once, where a low nice value only shortens its turns
 * (docs/identity.md has the figures). Where that fails (not Linux, no chrt, not permitted), nice is what stays.
 */
function lowerThisThreadsPriority(priority: HashThreadPriority): void {
  let threadId: number;
  try {
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(threadId) || threadId <= 0) return;
    setPriority(threadId, Math.min(19, getPriority() + THREAD_NICE_INCREMENT));
  } catch {
    return; // not Linux, or not permitted: the thread runs at the process's priority
  }
  if (priority !== 'idle') return;
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(threadId)], { stdio: 'ignore', timeout: 5_000 });
  } catch {
    // no chrt: the nice value above stays
  }
}
const settings: HashThreadData = isMainThread ? { priority: 'idle', cpuShare: 1 } : (workerData as HashThreadData);
// Only in a pool thread: a module that merely reads THREAD_NICE_INCREMENT on the main thread must not lower it.
if (!isMainThread) lowerThisThreadsPriority(settings.priority);
const pace = hashingPace(settings.cpuShare);
const restSignal = new Int32Array(new SharedArrayBuffer(4));

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

/** The key, and the thread's time for it, rest included (the pool's estimate of its wait, for Retry-After). */
export default function deriveKey(task: DeriveTask): DerivedKey {
  const rest = pace.restBefore(performance.now());
  if (rest > 0) Atomics.wait(restSignal, 0, 0, rest);
  const started = performance.now();
  const key = derive(task);
  return { key, ms: pace.derived(started, performance.now()), restedMs: Math.max(0, rest) };
}
