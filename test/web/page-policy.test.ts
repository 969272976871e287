import { createOutboundClient } from '../../shared/http/index.js';
import { fetchBatch } from '../../shared/web/fetch-batch.js';
import { decodePage } from '../../shared/web/page-charset.js';
import { createHarness, type Harness } from '../support/harness.js';
import { type PageServer, startPageServer, windows1251 } from './page-server.js';

let h: Harness;
let site: PageServer;
beforeAll(async () => {
  h = await createHarness({ WEB_FETCH_CACHE_SECONDS: '0' });
  site = await startPageServer();
});
afterAll(async () => {
  await site.close();
  await h.close();
});

describe('web fetch address policy and decoding', () => {
  it('refuses loopback pages with the allowlist off, per URL, before connecting', async () => {
    const client = createOutboundClient({ allowedHosts: [], timeoutMs: 2_000 });
    const hitsBefore = site.hits.get('/article') ?? 0;
    const pages = await fetchBatch(h.ctx, client, [`${site.origin}/article`, 'http://[::1]:9/', 'http://10.0.0.7/']);
    expect(pages.map((p) => p.url)).toEqual([`${site.origin}/article`, 'http://[::1]:9/', 'http://10.0.0.7/']);
    expect(pages[0]?.error).toMatch(/loopback address, which may not be fetched/);
    expect(pages[1]?.error).toMatch(/loopback address, which may not be fetched/);
    expect(pages[2]?.error).toMatch(/private address, which may not be fetched/);
    expect(pages.every((p) => p.title === '' && p.content === '')).toBe(true);
    expect(site.hits.get('/article') ?? 0).toBe(hitsBefore);
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
