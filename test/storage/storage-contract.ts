// The behaviour every object storage driver shares, run against each driver (local disk, S3-compatible).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { AppError } from '../../shared/errors/app-error.js';
import type { ObjectStorage } from '../../shared/storage/index.js';
import { readLimited } from '../../shared/storage/object-storage.js';

export type StorageWorld = {
  storage: ObjectStorage;
  /** Everything the driver left in its store (data and bookkeeping), to prove failures leave nothing behind. */
  leftovers(): Promise<string[]>;
};

export function chunked(total: number, chunkSize = 64 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const size = Math.min(chunkSize, total - sent);
      this.push(Buffer.alloc(size, sent % 251));
      sent += size;
    },
  });
}

/** Registers the shared storage tests; `world()` is the current test's storage (set up in the caller's beforeEach). */
export function storageContract(world: () => StorageWorld): void {
  it('stores a stream and gives the same bytes back with their size and sha256', async () => {
    const body = Buffer.from('hello, bundle\n'.repeat(1000));
    const stored = await world().storage.put('skills/abc/v1/bundle.zip', Readable.from([body]), {
      contentType: 'application/zip',
    });
    expect(stored).toEqual({
      key: 'skills/abc/v1/bundle.zip',
      sizeBytes: body.length,
      sha256: createHash('sha256').update(body).digest('hex'),
    });
    expect(await readLimited(await world().storage.get(stored.key), body.length)).toEqual(body);
    expect(await world().storage.getBuffer(stored.key, body.length)).toEqual(body);
    expect(await world().storage.exists(stored.key)).toBe(true);
    const info = await world().storage.stat(stored.key);
    expect(info).toMatchObject({ sizeBytes: body.length, sha256: stored.sha256, contentType: 'application/zip' });
    expect(info?.modifiedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('streams only a byte range of an object when asked (both ends included)', async () => {
    const body = Buffer.from(Array.from({ length: 200_000 }, (_, i) => i % 251));
    await world().storage.put('ranged.bin', Readable.from([body]), { contentType: 'application/octet-stream' });
    const slice = async (start: number, end: number) =>
      readLimited(await world().storage.get('ranged.bin', { start, end }), body.length);
    // Not 0-0: s3rver reads an end of 0 as none and sends the whole object (S3 itself answers the one byte).
    expect(await slice(0, 9)).toEqual(body.subarray(0, 10));
    expect(await slice(70_001, 150_000)).toEqual(body.subarray(70_001, 150_001));
    expect(await slice(199_990, 199_999)).toEqual(body.subarray(199_990));
  });

  it('hashes a multi-chunk stream exactly like the whole buffer', async () => {
    const stored = await world().storage.put('big.bin', chunked(3 * 1024 * 1024 + 17), {
      contentType: 'application/octet-stream',
    });
    const bytes = await world().storage.getBuffer('big.bin', 4 * 1024 * 1024);
    expect(stored.sizeBytes).toBe(3 * 1024 * 1024 + 17);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(stored.sha256);
  });

  it('replaces an object atomically when the same key is written again', async () => {
    await world().storage.put('doc.txt', Readable.from([Buffer.from('first')]), { contentType: 'text/plain' });
    await world().storage.put('doc.txt', Readable.from([Buffer.from('second version')]), {
      contentType: 'text/markdown',
    });
    expect((await world().storage.getBuffer('doc.txt', 100)).toString()).toBe('second version');
    expect(await world().storage.stat('doc.txt')).toMatchObject({ sizeBytes: 14, contentType: 'text/markdown' });
  });

  it('aborts a stream over maxBytes with 413 Storage.TooLarge and leaves nothing behind', async () => {
    const attempt = world().storage.put('too/big.zip', chunked(2 * 1024 * 1024), {
      contentType: 'application/zip',
      maxBytes: 1024 * 1024,
    });
    await expect(attempt).rejects.toMatchObject({ code: 'Storage.TooLarge', status: 413 });
    expect(await world().storage.exists('too/big.zip')).toBe(false);
    expect(await world().leftovers()).toEqual([]);
  });

  it('accepts a stream of exactly maxBytes', async () => {
    const stored = await world().storage.put('exact.bin', chunked(1000, 100), { contentType: 'x/y', maxBytes: 1000 });
    expect(stored.sizeBytes).toBe(1000);
  });

  it('refuses to read an object into memory past the given limit', async () => {
    await world().storage.put('a.bin', chunked(5000), { contentType: 'x/y' });
    await expect(world().storage.getBuffer('a.bin', 4999)).rejects.toMatchObject({ code: 'Storage.TooLarge' });
  });

  it('removes the temp file when the source stream fails', async () => {
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(world().storage.put('x.bin', failing, { contentType: 'x/y' })).rejects.toThrow('client went away');
    expect(await world().leftovers()).toEqual([]);
  });

  it('answers 404 Storage.NotFound for a missing object and deletes idempotently', async () => {
    await expect(world().storage.get('nope/missing.zip')).rejects.toMatchObject({
      code: 'Storage.NotFound',
      status: 404,
    });
    await expect(world().storage.getBuffer('nope/missing.zip', 10)).rejects.toMatchObject({ code: 'Storage.NotFound' });
    expect(await world().storage.stat('nope/missing.zip')).toBeNull();
    await world().storage.put('gone.txt', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
    await world().storage.delete('gone.txt');
    await world().storage.delete('gone.txt');
    expect(await world().storage.exists('gone.txt')).toBe(false);
    expect(await world().leftovers()).toEqual([]);
  });

  it.each([
    ['a parent segment', '../escape.txt'],
    ['a nested parent segment', 'a/../../escape.txt'],
    ['an absolute path', '/etc/passwd'],
    ['an empty segment', 'a//b'],
    ['a trailing slash', 'a/'],
    ['a segment starting with a dot', '.meta/x.json'],
    ['a dot segment', 'a/./b'],
    ['a backslash', 'a\\b'],
    ['a space', 'with space.txt'],
    ['a NUL character', 'nul\u0000.txt'],
    ['nothing', ''],
    ['600 characters', 'x'.repeat(600)],
  ])('refuses a key with %s with 400 Storage.InvalidKey', async (_label, key) => {
    const put = world().storage.put(key, Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
    await expect(put).rejects.toBeInstanceOf(AppError);
    await expect(put).rejects.toMatchObject({ code: 'Storage.InvalidKey', status: 400 });
    await expect(world().storage.get(key)).rejects.toMatchObject({ code: 'Storage.InvalidKey' });
    await expect(world().storage.delete(key)).rejects.toMatchObject({ code: 'Storage.InvalidKey' });
    expect(() => world().storage.publicUrl(key)).toThrow(AppError);
    expect(await world().leftovers()).toEqual([]);
  });
}
