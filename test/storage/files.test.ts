import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import { Readable } from 'node:stream';
import { createHarness, type Harness, waitUntil } from '../support/harness.js';
import { listeningServer } from '../support/loopback-ports.js';

let h: Harness;
let api: { server: http.Server; port: number };
beforeAll(async () => {
  h = await createHarness();
  api = await listeningServer();
  api.server.on('request', h.app);
});
afterAll(async () => {
  await new Promise((resolve) => api.server.close(resolve));
  await h.close();
});

/** Bytes this process has read through read(2) and its kind: files, sockets, pipes (Linux's /proc/self/io). */
const bytesRead = () => Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);

/** This process's open descriptors on files of the storage folder. */
const openStoredFiles = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(h.env.STORAGE_LOCAL_DIR as string);
    } catch {
      return false; // closed since it was listed
    }
  }).length;

/** Sends one raw request and closes the connection once `leaveAfter` bytes of the answer have arrived. */
function rawRequest(request: string, leaveAfter = Number.POSITIVE_INFINITY): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(api.port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    let received = 0;
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= leaveAfter) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
  });
}

async function storeLargeVideo(key: string, mebibytes: number) {
  const mebibyte = Buffer.alloc(1024 * 1024, 7);
  return h.ctx.storage.put(key, Readable.from(Array.from({ length: mebibytes }, () => mebibyte)), {
    contentType: 'video/mp4',
  });
}

describe('GET /files/{key}', () => {
  it('serves a stored object with its type, length and an immutable cache policy, and answers 304 to its ETag', async () => {
    const stored = await h.ctx.storage.put('videos/demo/clip.mp4', Readable.from([Buffer.from('not really an mp4')]), {
      contentType: 'video/mp4',
    });
    expect(h.ctx.storage.publicUrl('videos/demo/clip.mp4')).toBe(
      `${h.config.publicBaseUrl}/files/videos/demo/clip.mp4`,
    );
    const res = await h.http.get('/files/videos/demo/clip.mp4').buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-length']).toBe(String(stored.sizeBytes));
    expect(res.headers['cache-control']).toContain('immutable');
    expect(res.body.toString()).toBe('not really an mp4');
    const again = await h.http.get('/files/videos/demo/clip.mp4').set('if-none-match', res.headers.etag as string);
    expect(again.status).toBe(304);
  });

  it('answers a problem 404 for a missing object or a key that escapes the storage root', async () => {
    for (const path of ['/files/nothing/here.bin', '/files/..%2F..%2Fetc/passwd', '/files/.meta/x']) {
      const res = await h.http.get(path);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text).title).toMatch(/NotFound/);
    }
  });

  it('answers a HEAD with the headers alone, without reading the object (security review #138)', async () => {
    const stored = await storeLargeVideo('videos/head/large.mp4', 32);
    const before = bytesRead();
    for (let i = 0; i < 3; i++) {
      const answer = await rawRequest(
        'HEAD /files/videos/head/large.mp4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toContain(`content-length: ${stored.sizeBytes}`);
      expect(answer).toContain('content-type: video/mp4');
    }
    // Before the fix each HEAD piped the whole object into a response that drops its body: 3 × 32 MiB read.
    expect(bytesRead() - before).toBeLessThan(stored.sizeBytes);
  });

  it('closes the file as soon as a client leaves mid-download (security review #138)', async () => {
    await storeLargeVideo('videos/leave/large.mp4', 32);
    await Promise.all(
      Array.from({ length: 20 }, () => rawRequest('GET /files/videos/leave/large.mp4 HTTP/1.1\r\nHost: x\r\n\r\n', 1)),
    );
    // Before the fix the file stream was only unpiped when the response closed: paused, its descriptor open until
    // a garbage collection happened to close it (with Node's DEP0137 warning, which a later Node makes an error).
    await waitUntil(async () => openStoredFiles() === 0, 5_000);
    const whole = await rawRequest(
      'GET /files/videos/leave/large.mp4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(whole.length).toBeGreaterThan(32 * 1024 * 1024);
  });
});

describe('GET /files/{key} with Range', () => {
  /** 100,000 bytes that differ from their neighbours, so a slice off by one byte shows. */
  const body = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
  const path = '/files/videos/ranges/clip.mp4';
  let etag: string;
  beforeAll(async () => {
    const stored = await h.ctx.storage.put('videos/ranges/clip.mp4', Readable.from([body]), {
      contentType: 'video/mp4',
    });
    etag = `"${stored.sha256}"`;
  });
  const get = (headers: Record<string, string>) => h.http.get(path).set(headers).buffer(true);

  it('answers one range as 206 with Content-Range and exactly those bytes (a-b, a-, -n, an end past the file)', async () => {
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      ['bytes=1000-1999', 1000, 1999],
      ['bytes=99000-', 99_000, 99_999],
      ['bytes=-500', 99_500, 99_999],
      ['bytes=98000-200000', 98_000, 99_999],
      ['bytes=0-', 0, 99_999],
      ['bytes=-100000', 0, 99_999],
      ['bytes=-250000', 0, 99_999], // a suffix longer than the file is all of it (RFC 9110 14.1.1), not a 416
    ];
    for (const [range, start, end] of cases) {
      const res = await get({ range });
      expect([range, res.status, res.headers['content-range'], res.headers['content-length']]).toEqual([
        range,
        206,
        `bytes ${start}-${end}/${body.length}`,
        String(end - start + 1),
      ]);
      expect(Buffer.compare(res.body as Buffer, body.subarray(start, end + 1))).toBe(0);
      expect(res.headers).toMatchObject({ 'accept-ranges': 'bytes', 'content-type': 'video/mp4', etag });
    }
    const whole = await get({});
    expect([whole.status, whole.headers['accept-ranges']]).toEqual([200, 'bytes']);
    expect(Buffer.compare(whole.body as Buffer, body)).toBe(0);
  });

  it('answers 416 with Content-Range bytes */size for a range past the end, and no cache policy', async () => {
    for (const range of ['bytes=100000-', 'bytes=200000-300000', 'bytes=-0']) {
      const res = await get({ range });
      expect([range, res.status, res.headers['content-range']]).toEqual([range, 416, 'bytes */100000']);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.text).title).toBe('File.RangeNotSatisfiable');
      expect(res.headers['cache-control']).toBeUndefined();
    }
  });

  it('answers a suffix range of an empty file with the whole (empty) file, and any other range with 416', async () => {
    await h.ctx.storage.put('videos/ranges/empty.mp4', Readable.from([Buffer.alloc(0)]), { contentType: 'video/mp4' });
    const empty = (range: string) => h.http.get('/files/videos/ranges/empty.mp4').set({ range }).buffer(true);
    const suffix = await empty('bytes=-5');
    expect([suffix.status, suffix.headers['content-length'], suffix.headers['content-range']]).toEqual([
      200,
      '0',
      undefined,
    ]);
    const start = await empty('bytes=0-');
    expect([start.status, start.headers['content-range']]).toEqual([416, 'bytes */0']);
  });

  it('answers the range while If-Range names the current ETag, and the whole file otherwise', async () => {
    const current = await get({ range: 'bytes=10-19', 'if-range': etag });
    expect([current.status, current.headers['content-range']]).toEqual([206, 'bytes 10-19/100000']);
    expect(Buffer.compare(current.body as Buffer, body.subarray(10, 20))).toBe(0);
    for (const ifRange of ['"an-old-tag"', `W/${etag}`, new Date(Date.now() + 60_000).toUTCString()]) {
      const stale = await get({ range: 'bytes=10-19', 'if-range': ifRange });
      expect([ifRange, stale.status, stale.headers['content-range']]).toEqual([ifRange, 200, undefined]);
      expect(Buffer.compare(stale.body as Buffer, body)).toBe(0);
    }
  });

  it('answers several ranges, another unit or a malformed Range with the whole file once (200, no multipart)', async () => {
    const thousand = `bytes=${Array.from({ length: 1000 }, (_, i) => `${i}-${i}`).join(',')}`;
    for (const range of ['bytes=0-1,5-6', thousand, 'items=0-5', 'bytes=abc', 'bytes=5']) {
      const res = await get({ range });
      expect([range.slice(0, 20), res.status, res.headers['content-length']]).toEqual([
        range.slice(0, 20),
        200,
        String(body.length),
      ]);
      expect(res.headers['content-type']).toBe('video/mp4');
      expect(Buffer.compare(res.body as Buffer, body)).toBe(0);
    }
  });

  it('answers 304 to a current If-None-Match before looking at the Range', async () => {
    const res = await get({ range: 'bytes=0-9', 'if-none-match': etag });
    expect(res.status).toBe(304);
  });

  it('reads only the range from disk, and a HEAD with a Range answers the 206 headers and reads nothing', async () => {
    const stored = await storeLargeVideo('videos/ranges/large.mp4', 32);
    const before = bytesRead();
    for (const range of ['bytes=0-1023', 'bytes=16777216-16778239', 'bytes=-1024']) {
      const answer = await rawRequest(
        `GET /files/videos/ranges/large.mp4 HTTP/1.1\r\nHost: x\r\nRange: ${range}\r\nConnection: close\r\n\r\n`,
      );
      const [head, rest = ''] = answer.split('\r\n\r\n');
      expect([range, head?.split('\r\n')[0], rest.length]).toEqual([range, 'HTTP/1.1 206 Partial Content', 1024]);
      expect(head).toContain('content-length: 1024');
      expect(rest).toBe('\u0007'.repeat(1024));
    }
    const head = await rawRequest(
      'HEAD /files/videos/ranges/large.mp4 HTTP/1.1\r\nHost: x\r\nRange: bytes=100-\r\nConnection: close\r\n\r\n',
    );
    expect(head).toMatch(/^HTTP\/1\.1 206 /);
    expect(head).toContain(`content-range: bytes 100-${stored.sizeBytes - 1}/${stored.sizeBytes}`);
    expect(head).toContain(`content-length: ${stored.sizeBytes - 100}`);
    expect(head).toContain('accept-ranges: bytes');
    expect(head.endsWith('\r\n\r\n')).toBe(true);
    // Three whole reads before ranges (96 MiB): now three KiB and the file system's read-ahead of each.
    expect(bytesRead() - before).toBeLessThan(4 * 1024 * 1024);
  });

  it('closes the file as soon as a client leaves mid-range', async () => {
    await storeLargeVideo('videos/ranges/leave.mp4', 32);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        rawRequest('GET /files/videos/ranges/leave.mp4 HTTP/1.1\r\nHost: x\r\nRange: bytes=1048576-\r\n\r\n', 1),
      ),
    );
    await waitUntil(async () => openStoredFiles() === 0, 5_000);
  });
});
