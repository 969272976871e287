// The object storage contract every driver (local disk, S3-compatible) fulfils, and its errors.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors/app-error.js';

export type PutOptions = {
  contentType: string;
  /** The stream is aborted and nothing is stored once it passes this many bytes. */
  maxBytes?: number;
};

export type StoredObject = { key: string; sizeBytes: number; sha256: string };

export type ObjectStat = StoredObject & { contentType: string; modifiedAt: Date };

/** Bytes `start` to `end` of an object, both included (as HTTP's `Range: bytes=start-end` counts them). */
export type ByteRange = { start: number; end: number };

/** What a driver records beside each object, so that `stat` need not read the object for its hash. */
export type ObjectMeta = { contentType: string; sizeBytes: number; sha256: string };

export interface ObjectStorage {
  readonly driver: 'local' | 's3';
  /** Streams `body` to `key`, hashing and counting on the way; the object appears whole or not at all. */
  put(key: string, body: Readable, options: PutOptions): Promise<StoredObject>;
  /** A stream of the object's bytes, or of only `range` of them; 404 `Storage.NotFound` when it does not exist. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The whole object in memory; 413 `Storage.TooLarge` when it is bigger than `maxBytes`. */
  getBuffer(key: string, maxBytes: number): Promise<Buffer>;
  stat(key: string): Promise<ObjectStat | null>;
  exists(key: string): Promise<boolean>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Where clients download the object from (the CDN when one is configured). */
  publicUrl(key: string): string;
  /** The object's address at the store itself (the CDN's origin). */
  originUrl(key: string): string;
  /**
   * Removes what writes left behind when their process died mid-write (a failed or aborted write cleans up after
   * itself): temp files last written more than `olderThanMs` ago. Answers how many it removed.
   */
  removeOrphanedTemp(olderThanMs: number): Promise<number>;
}

export const objectTooLarge = (maxBytes: number) =>
  new AppError('Storage.TooLarge', 413, `The object is larger than the limit of ${maxBytes} bytes.`, {
    details: { maxBytes },
  });

export const objectNotFound = (key: string) =>
  new AppError('Storage.NotFound', 404, `No stored object has the key "${key}".`);

/**
 * `getBuffer` for every driver: refuses an object its stat already shows too large before reading any of it, and
 * still stops reading past `maxBytes` (the object may have grown since).
 */
export async function readObjectLimited(
  storage: Pick<ObjectStorage, 'stat' | 'get'>,
  key: string,
  maxBytes: number,
): Promise<Buffer> {
  const found = await storage.stat(key);
  if (!found) throw objectNotFound(key);
  if (found.sizeBytes > maxBytes) throw objectTooLarge(maxBytes);
  return readLimited(await storage.get(key), maxBytes);
}

/** The object's sha256: the recorded one while it matches the object's size, else the object read and hashed. */
export async function objectSha256(
  storage: Pick<ObjectStorage, 'get'>,
  key: string,
  sizeBytes: number,
  meta: ObjectMeta | null,
): Promise<string> {
  if (meta?.sizeBytes === sizeBytes) return meta.sha256;
  const hash = createHash('sha256');
  await pipeline(await storage.get(key), hash);
  return hash.digest('hex');
}

/** Reads a stream into memory, stopping (and destroying the stream) as soon as it passes `maxBytes`. */
export async function readLimited(stream: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size += buf.length;
      if (size > maxBytes) throw objectTooLarge(maxBytes);
      chunks.push(buf);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks, size);
}
