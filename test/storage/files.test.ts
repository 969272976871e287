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
