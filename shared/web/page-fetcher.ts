// Fetches one user-supplied URL through the safe outbound client and turns it into {url, title, content}: HTML
// is decoded and its readable text extracted, plain text passes through, anything else is a per-URL error.
import { isOutboundRequestError, type OutboundClient } from '../http/index.js';
import { PageTooComplex } from './extraction-pool.js';
import { type FetchedPage, failedPage } from './fetched-page.js';
import { decodePage } from './page-charset.js';
import { MAX_CONTENT_CHARS } from './readable-text.js';

/** Reads an HTML page's title and text off the main thread (extraction-pool.ts); throws `PageTooComplex`. */
export type HtmlReader = (
  body: Uint8Array,
  contentType: string | undefined,
) => Promise<{ title: string; content: string }>;

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.1';

const mediaType = (contentType: string | undefined) => (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** No content-type: read as HTML when the bytes start like markup. */
const looksLikeHtml = (body: Buffer) => /^\s*</.test(body.subarray(0, 512).toString('latin1'));

export async function fetchPage(client: OutboundClient, readHtml: HtmlReader, url: string): Promise<FetchedPage> {
  let reply: Awaited<ReturnType<OutboundClient['fetchBuffer']>>;
  try {
    reply = await client.fetchBuffer(url, { headers: { accept: ACCEPT } });
  } catch (err) {
    return failedPage(url, isOutboundRequestError(err) ? err.message : 'The page could not be fetched.');
  }
  if (reply.status >= 300) return failedPage(url, `The page answered HTTP ${reply.status}.`);
  const contentTypeHeader = reply.headers['content-type'];
  const contentType = Array.isArray(contentTypeHeader) ? contentTypeHeader[0] : contentTypeHeader;
  const type = mediaType(contentType);
  if (type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && looksLikeHtml(reply.body))) {
    try {
      return { url, ...(await readHtml(reply.body, contentType)) };
    } catch (err) {
      if (err instanceof PageTooComplex) return failedPage(url, err.message);
      throw err;
    }
  }
  if (type === 'text/plain') {
    const { text } = decodePage(reply.body, contentType);
    return { url, title: '', content: text.trim().slice(0, MAX_CONTENT_CHARS) };
  }
  return failedPage(url, `Unsupported content type ${type || '(none)'}: only HTML and plain text pages are read.`);
}
