// A loopback web site for the web-fetch tests and benchmark: an article, a redirect chain, a page that never
// ends, an oversized page, legacy-encoded pages, redirects to private addresses, non-HTML and numbered pages, and
// hostile pages (`/nested/<depth>`, `/attributes/<count>`).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { manyAttributes, nestedDivs } from './hostile-html.js';

export type PageServer = { origin: string; hits: Map<string, number>; close(): Promise<void> };

const paragraph = (n: number) =>
  `<p>Paragraph ${n} of the article explains how the lighthouse keeper logged every passing ship, the weather of the day and the state of the lamp, in a careful hand that later historians learned to read.</p>`;

export const ARTICLE_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>The Lighthouse Logbooks</title></head>
<body><nav><a href="/">Home</a> | <a href="/shop">Shop</a> | <a href="/login">Sign in</a></nav>
<aside class="sidebar">Subscribe to our newsletter! Advertisement. Cookie settings.</aside>
<article><h1>The Lighthouse Logbooks</h1>${Array.from({ length: 8 }, (_, i) => paragraph(i + 1)).join('\n')}</article>
<footer>Copyright 2026 Example Media. All rights reserved.</footer><script>window.tracking = true;</script></body></html>`;

/** Windows-1251 bytes of Cyrillic text (А..я are 0xC0..0xFF), ASCII passes through. */
export function windows1251(text: string): Buffer {
  return Buffer.from(
    Array.from(text, (ch) => {
      const code = ch.codePointAt(0) as number;
      if (code < 0x80) return code;
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      throw new Error(`not encodable in this test: ${ch}`);
    }),
  );
}

export const RUSSIAN_TITLE = 'Новости науки';
export const RUSSIAN_TEXT = 'Ученые открыли новую звезду в созвездии Лебедя';

function cyrillicPage(withHeaderCharset: boolean): { type: string; body: Buffer } {
  const meta = withHeaderCharset ? '' : '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">';
  const html = `<html><head>${meta}<title>${RUSSIAN_TITLE}</title></head><body><article><p>${RUSSIAN_TEXT}.</p><p>${RUSSIAN_TEXT}!</p></article></body></html>`;
  return { type: withHeaderCharset ? 'text/html; charset=windows-1251' : 'text/html', body: windows1251(html) };
}

export async function startPageServer(): Promise<PageServer> {
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const send = (status: number, type: string, body: string | Buffer) => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    const redirect = (location: string) => {
      res.writeHead(302, { location });
      res.end();
    };
    if (path === '/article' || path.startsWith('/cached/')) return send(200, 'text/html; charset=utf-8', ARTICLE_HTML);
    const hop = path.match(/^\/redirect\/(\d)$/);
    if (hop) return redirect(Number(hop[1]) >= 3 ? '/article' : `/redirect/${Number(hop[1]) + 1}`);
    if (path === '/never-ends') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><body><p>This page keeps loading');
      const timer = setInterval(() => res.write('.'), 200);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (path === '/huge') {
      // 6 MiB without a content-length: the limit must cut it while reading.
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < 96) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      return pump();
    }
    if (path === '/cp1251-header') {
      const page = cyrillicPage(true);
      return send(200, page.type, page.body);
    }
    if (path === '/cp1251-meta') {
      const page = cyrillicPage(false);
      return send(200, page.type, page.body);
    }
    if (path === '/to-metadata') return redirect('http://169.254.169.254/latest/meta-data/');
    if (path === '/to-private') return redirect('http://10.0.0.7/admin');
    if (path === '/pdf') return send(200, 'application/pdf', Buffer.from('%PDF-1.4 not really'));
    if (path === '/notes.txt')
      return send(200, 'text/plain; charset=utf-8', 'Plain notes, passed through as they are.\n');
    if (path === '/missing') return send(404, 'text/html', '<html><body>Not here</body></html>');
    const nested = path.match(/^\/nested\/(\d+)$/);
    if (nested) return send(200, 'text/html; charset=utf-8', nestedDivs(Number(nested[1])));
    const flooded = path.match(/^\/attributes\/(\d+)$/);
    if (flooded) return send(200, 'text/html; charset=utf-8', manyAttributes(Number(flooded[1])));
    const numbered = path.match(/^\/page\/(\d+)$/);
    if (numbered) {
      const n = Number(numbered[1]);
      // Later pages answer sooner, so the answer order would differ from the request order if it were not kept.
      const delay = Math.max(0, 100 - n * 5);
      setTimeout(
        () =>
          send(
            200,
            'text/html; charset=utf-8',
            `<html><head><title>Page ${n}</title></head><body><article><h1>Page ${n}</h1>${paragraph(n)}${paragraph(n + 1)}</article></body></html>`,
          ),
        delay,
      );
      return;
    }
    send(404, 'text/plain', 'no such page');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
