// The web search capability behind one interface: a query in, results normalized to {url,title,content,score}
// (score 0..1, best first) and optional images out; with the helpers every adapter shares.
import type { Config } from '../../config/index.js';
import { AppError, serviceUnavailable } from '../../errors/app-error.js';
import type { OutboundResponse } from '../../http/index.js';

export type SearchQuery = {
  query: string;
  maxResults: number;
  /** UTC calendar dates (YYYY-MM-DD), already checked start ≤ end. */
  startDate?: string;
  endDate?: string;
  includeImages: boolean;
};

export type SearchItem = { url: string; title: string; content: string; score: number };
export type SearchImage = { url: string; description?: string };
export type SearchAnswer = { items: SearchItem[]; images?: SearchImage[] };

export type SearchProvider = { readonly kind: string; search(query: SearchQuery): Promise<SearchAnswer> };

/** Time allowed for one upstream search call. */
export const SEARCH_TIMEOUT_MS = 30_000;

export function searchBaseUrl(config: Config, path: string): URL {
  const base = config.UPSTREAM_SEARCH_URL;
  if (!base) throw serviceUnavailable('No search upstream is configured.');
  return new URL(path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
}

/** Scores clamped into 0..1 and sorted best first (stable for equal scores), cut to maxResults. */
export function normalizeItems(items: SearchItem[], maxResults: number): SearchItem[] {
  return items
    .map((item) => ({ ...item, score: Math.min(1, Math.max(0, Number.isFinite(item.score) ? item.score : 0)) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, maxResults);
}

/**
 * An upstream error answer as the caller sees it: 429 stays 429 (with its retry-after), 503 stays 503, anything
 * else (including the upstream refusing our own credentials or parameters) is a 500. Each with a fixed message: the
 * upstream's own words can echo the operator's key (a security review found a 401 doing so), so they travel only as
 * the error's cause, which the server log shows and the caller and the request log never do.
 */
export function searchUpstreamFailure(status: number, retryAfter: string | undefined, detail: string): AppError {
  const cause = new Error(`The search upstream answered ${status}${detail ? `: ${detail}` : ''}.`);
  if (status === 429) {
    return new AppError('Upstream.RateLimited', 429, 'The search upstream is limiting this service; retry later.', {
      headers: { 'retry-after': retryAfter ?? '1' },
      cause,
    });
  }
  if (status === 503) {
    return new AppError('Upstream.Unavailable', 503, 'The search upstream is unavailable; try again shortly.', {
      headers: { 'retry-after': '1' },
      cause,
    });
  }
  return new AppError(`Upstream.Status${status}`, 500, 'The search upstream failed to answer; try again shortly.', {
    cause,
  });
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** A string field of an upstream answer, or "" when it is missing or not a string. */
export const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * An upstream answer's body as JSON; an error status throws `searchUpstreamFailure`, with the detail `detailOf`
 * reads from the error body (each upstream words its errors its own way).
 */
export function searchAnswerBody<T>(reply: OutboundResponse<Buffer>, detailOf: (errorBody: T) => string): T {
  const json = parseJsonBody(reply.body) as T;
  if (reply.status >= 400) {
    throw searchUpstreamFailure(reply.status, headerValue(reply.headers['retry-after']), detailOf(json));
  }
  return json;
}

/** An upstream body as JSON; an unparsable one (an HTML error page) is an empty object. */
function parseJsonBody(body: Buffer): Record<string, never> {
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, never>) : {};
  } catch {
    return {};
  }
}
