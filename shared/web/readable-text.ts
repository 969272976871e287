// Extracts a page's readable main text: Mozilla Readability (Firefox's reader view) over a linkedom DOM, turned
// into plain text with paragraph breaks; pages Readability finds no article in fall back to the body's text.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

/** Longest text kept per page, in characters (see docs/web.md). */
export const MAX_CONTENT_CHARS = 250_000;

const BLOCKS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TR',
  'UL',
]);
const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'IFRAME']);

type DomNode = { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<DomNode> };

function collectText(node: DomNode, out: string[]): void {
  if (node.nodeType === 3) {
    out.push((node.textContent ?? '').replace(/\s+/g, ' '));
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const name = node.nodeName.toUpperCase();
  if (SKIPPED.has(name)) return;
  if (name === 'BR') {
    out.push('\n');
    return;
  }
  const block = BLOCKS.has(name);
  if (block) out.push('\n\n');
  for (const child of Array.from(node.childNodes)) collectText(child, out);
  if (block) out.push('\n\n');
}

export function plainText(root: DomNode): string {
  const out: string[] = [];
  collectText(root, out);
  return out
    .join('')
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .slice(0, MAX_CONTENT_CHARS);
}

export function readableText(html: string): { title: string; content: string } {
  const { document } = parseHTML(html);
  const pageTitle = (document.title ?? '').replace(/\s+/g, ' ').trim();
  const fallbackText = () => (document.body ? plainText(document.body as unknown as DomNode) : '');
  let article: ReturnType<Readability<string>['parse']> = null;
  let bodyText = '';
  try {
    // Readability changes the document it reads: keep the body text first for the fallback.
    bodyText = fallbackText();
    article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  } catch {
    article = null;
  }
  if (!article?.content) return { title: pageTitle, content: bodyText };
  const { document: articleDoc } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
  const content = articleDoc.body ? plainText(articleDoc.body as unknown as DomNode) : '';
  return { title: (article.title ?? '').trim() || pageTitle, content: content || bodyText };
}
