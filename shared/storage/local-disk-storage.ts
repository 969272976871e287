// The local disk driver: objects live under one root folder; writes go to a temp file first and are renamed into place.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { trimTrailing } from '../text/trim-trailing.js';
import { assertObjectKey } from './object-keys.js';
import {
  type ByteRange,
  type ObjectMeta,
  type ObjectStat,
  type ObjectStorage,
  objectNotFound,
  objectSha256,
  objectTooLarge,
  type PutOptions,
  readObjectLimited,
  type StoredObject,
} from './object-storage.js';

/** Temp files and the recorded metadata live here (keys never start with ".", so these folders cannot clash). */
const TEMP_DIR = '.tmp';
const META_DIR = '.meta';

export type LocalDiskStorageOptions = {
  root: string;
  publicBaseUrl: string;
  /** Where the API serves the files itself (the CDN's origin); defaults to publicBaseUrl. */
  originBaseUrl?: string;
};

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException)?.code === 'ENOENT';

export class LocalDiskStorage implements ObjectStorage {
  readonly driver = 'local' as const;
  readonly root: string;
  private readonly publicBaseUrl: string;
  private readonly originBaseUrl: string;

  constructor(options: LocalDiskStorageOptions) {
    this.root = path.resolve(options.root);
    this.publicBaseUrl = trimTrailing(options.publicBaseUrl, /\//);
    this.originBaseUrl = trimTrailing(options.originBaseUrl ?? options.publicBaseUrl, /\//);
  }

  async put(key: string, body: Readable, options: PutOptions): Promise<StoredObject> {
    assertObjectKey(key);
    const { maxBytes } = options;
    const tempDir = path.join(this.root, TEMP_DIR);
    await mkdir(tempDir, { recursive: true });
    const tempFile = path.join(tempDir, `${randomUUID()}.part`);
    const hash = createHash('sha256');
    let sizeBytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sizeBytes += chunk.length;
        if (maxBytes !== undefined && sizeBytes > maxBytes) return done(objectTooLarge(maxBytes));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, meter, createWriteStream(tempFile, { flags: 'wx' }));
      await syncFile(tempFile);
      const sha256 = hash.digest('hex');
      const target = this.dataPath(key);
      await this.writeMeta(key, { contentType: options.contentType, sizeBytes, sha256 });
      await mkdir(path.dirname(target), { recursive: true });
      await rename(tempFile, target);
      return { key, sizeBytes, sha256 };
    } catch (err) {
      await rm(tempFile, { force: true });
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    assertObjectKey(key);
    const handle = await open(this.dataPath(key), 'r').catch((err: unknown) => {
      throw isMissing(err) ? objectNotFound(key) : err;
    });
    // Only the range's bytes are read from disk: the stream starts at `start` and ends after `end`.
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  getBuffer(key: string, maxBytes: number): Promise<Buffer> {
    return readObjectLimited(this, key, maxBytes);
  }

  async stat(key: string): Promise<ObjectStat | null> {
    assertObjectKey(key);
    const info = await stat(this.dataPath(key)).catch((err: unknown) => {
      if (isMissing(err)) return null;
      throw err;
    });
    if (!info?.isFile()) return null;
    const meta = await this.readMeta(key);
    return {
      key,
      sizeBytes: info.size,
      sha256: await objectSha256(this, key, info.size, meta),
      contentType: meta?.contentType ?? 'application/octet-stream',
      modifiedAt: info.mtime,
    };
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await rm(this.dataPath(key), { force: true });
    await rm(this.metaPath(key), { force: true });
  }

  async removeOrphanedTemp(olderThanMs: number): Promise<number> {
    const tempDir = path.join(this.root, TEMP_DIR);
    const cutoff = Date.now() - olderThanMs;
    let removed = 0;
    for (const name of await readdir(tempDir).catch(() => [] as string[])) {
      const file = path.join(tempDir, name);
      // A write in progress touches its file with every chunk; one idle for the whole window has no writer left.
      const info = await stat(file).catch(() => null);
      if (!info?.isFile() || info.mtimeMs > cutoff) continue;
      await rm(file, { force: true });
      removed++;
    }
    return removed;
  }

  publicUrl(key: string): string {
    assertObjectKey(key);
    return `${this.publicBaseUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  originUrl(key: string): string {
    assertObjectKey(key);
    return `${this.originBaseUrl}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  private dataPath(key: string): string {
    return this.inside(path.join(this.root, ...key.split('/')));
  }

  private metaPath(key: string): string {
    return this.inside(path.join(this.root, META_DIR, `${key}.json`));
  }

  /** A second guard after key validation: a resolved path must stay under the root. */
  private inside(resolved: string): string {
    if (!resolved.startsWith(this.root + path.sep)) throw new Error(`Path ${resolved} escapes the storage root`);
    return resolved;
  }

  private async writeMeta(key: string, meta: ObjectMeta): Promise<void> {
    const file = this.metaPath(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = path.join(this.root, TEMP_DIR, `${randomUUID()}.meta`);
    try {
      await writeFile(temp, JSON.stringify(meta), { flag: 'wx' });
      await rename(temp, file);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  private async readMeta(key: string): Promise<ObjectMeta | null> {
    try {
      return JSON.parse(await readFile(this.metaPath(key), 'utf8')) as ObjectMeta;
    } catch {
      return null;
    }
  }
}

async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
