import { Readable } from 'node:stream';
import { createHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

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
});
