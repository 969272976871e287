// Runs in a thread of the password pool (password-hasher.ts): derives one key with the synchronous functions, so
// the work stays on this thread and never takes a slot of libuv's pool from DNS, files and zlib.
import { scryptSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type Algorithm, hashRawSync, type Version } from '@node-rs/argon2';
import { type KeyParams, MAX_KEY_MEMORY_BYTES } from './password-formats.js';

export type DeriveTask = { password: string; salt: Uint8Array; keyLength: number; params: KeyParams };
export type DerivedKey = { key: Uint8Array; ms: number };

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
