import { createOutboundClient } from '../../shared/http/index.js';
import { createExtractionPool, type ExtractionPool } from '../../shared/web/extraction-pool.js';
import { fetchBatch } from '../../shared/web/fetch-batch.js';
import { decodePage } from '../../shared/web/page-charset.js';
import { createHarness, type Harness } from '../support/harness.js';
import { type PageServer, startPageServer, windows1251 } from '../support/page-server.js';

let h: Harness;
let site: PageServer;
let pool: ExtractionPool;
beforeAll(async () => {
  h = await createHarness({ WEB_FETCH_CACHE_SECONDS: '0' });
  site = await startPageServer();
  pool = createExtractionPool({
    threads: 1,
    timeoutMs: 5_000,
    heapMb: 128,
    maxElements: 50_000,
    maxAttributes: 100_000,
    maxDepth: 256,
  });
});
afterAll(async () => {
  await pool.close();
  await site.close();
  await h.close();
});

describe('web fetch address policy and decoding', () => {
  it('refuses loopback pages with the allowlist off, per URL, before connecting', async () => {
    const client = createOutboundClient({ allowedHosts: [], timeoutMs: 2_000 });
    const hitsBefore = site.hits.get('/article') ?? 0;
    const pages = await fetchBatch(h.ctx, client, pool.extract, [
      `${site.origin}/article`,
      'http://[::1]:9/',
      'http://10.0.0.7/',
    ]);
    expect(pages.map((p) => p.url)).toEqual([`${site.origin}/article`, 'http://[::1]:9/', 'http://10.0.0.7/']);
    expect(pages[0]?.error).toMatch(/loopback address, which may not be fetched/);
    expect(pages[1]?.error).toMatch(/loopback address, which may not be fetched/);
    expect(pages[2]?.error).toMatch(/private address, which may not be fetched/);
    expect(pages.every((p) => p.title === '' && p.content === '')).toBe(true);
    expect(site.hits.get('/article') ?? 0).toBe(hitsBefore);
    await client.close();
  });

  it('says which rule refused a page, never the address its host resolved to', async () => {
    const client = createOutboundClient({ allowedHosts: [], timeoutMs: 2_000 });
    const port = new URL(site.origin).port;
    const [byName, byScheme] = await fetchBatch(h.ctx, client, pool.extract, [
      `http://localhost:${port}/article`,
      'ftp://example.com/file.txt',
    ]);
    expect(byName?.error).toBe(
      'Refused by the private-address rule: localhost resolves to a loopback address, which may not be fetched.',
    );
    expect(byScheme?.error).toMatch(/^Refused by the scheme rule: /);
    await client.close();
  });

  it('decodes by byte-order mark, then header charset, then meta charset, else UTF-8', () => {
    const russian = windows1251('Привет');
    expect(decodePage(russian, 'text/html; charset=windows-1251').text).toBe('Привет');
    const meta = Buffer.concat([Buffer.from('<meta charset="windows-1251">'), russian]);
    expect(decodePage(meta, 'text/html').text).toBe('<meta charset="windows-1251">Привет');
    const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b]); // 日本 in Shift_JIS
    expect(decodePage(sjis, 'text/html; charset=Shift_JIS').text).toBe('日本');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('héllo')]);
    expect(decodePage(bom, 'text/html; charset=windows-1251').text).toBe('héllo');
    expect(decodePage(Buffer.from('héllo'), 'text/html; charset=no-such-charset').text).toBe('héllo');
  });
});
