// Brave Search wire format: GET /res/v1/web/search and /res/v1/images/search with `X-Subscription-Token`;
// errors as `{type:"ErrorResponse", error:{id, status, code, detail, meta}, time}`.
import { randomUUID } from 'node:crypto';
import { Router } from 'express';
import type { ResolvedOptions } from '../options.js';
import { checkKey, familyErrorHandler, ProviderError } from '../provider-error.js';
import type { SimulatorState } from '../simulator-state.js';
import { has, RETRY_AFTER_SECONDS } from '../triggers.js';
import { type SearchHit, searchHits, searchImages } from './search-hits.js';

const braveError = (
  status: number,
  code: string,
  detail: string,
  meta?: unknown,
  headers: Record<string, string> = {},
) =>
  new ProviderError(
    status,
    {
      type: 'ErrorResponse',
      error: { id: randomUUID(), status, code, detail, ...(meta ? { meta } : {}) },
      time: Math.floor(Date.now() / 1000),
    },
    headers,
  );

const validation = (loc: string[], msg: string) =>
  braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)', {
    errors: [{ type: 'value_error', loc, msg }],
  });

function integerParam(value: unknown, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw validation(['query', name], `Input should be between ${min} and ${max}`);
  return n;
}

/** `freshness=YYYY-MM-DDtoYYYY-MM-DD` becomes a date range; the pd/pw/pm/py shorthands are accepted and ignored. */
function freshnessRange(freshness: unknown): { start?: string; end?: string } {
  const match = typeof freshness === 'string' ? freshness.match(/^(\d{4}-\d{2}-\d{2})to(\d{4}-\d{2}-\d{2})$/) : null;
  return match ? { start: match[1], end: match[2] } : {};
}

function metaUrl(url: string) {
  const u = new URL(url);
  return {
    scheme: 'https',
    netloc: u.host,
    hostname: u.hostname,
    favicon: 'https://example.com/favicon.ico',
    path: `› ${u.pathname.split('/').filter(Boolean).join(' › ')}`,
  };
}

function webResult(hit: SearchHit, extraSnippets: boolean) {
  return {
    title: hit.title,
    url: hit.url,
    is_source_local: false,
    is_source_both: false,
    description: hit.content,
    page_age: `${hit.publishedDate}T00:00:00`,
    age: new Date(`${hit.publishedDate}T00:00:00Z`).toLocaleDateString('en-US', {
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      timeZone: 'UTC',
    }),
    profile: {
      name: 'Example',
      url: 'https://example.com/',
      long_name: 'example.com',
      img: 'https://example.com/favicon.ico',
    },
    language: 'en',
    family_friendly: true,
    type: 'search_result',
    subtype: 'generic',
    is_live: false,
    meta_url: metaUrl(hit.url),
    ...(extraSnippets ? { extra_snippets: [hit.rawContent.split('\n\n')[1] ?? hit.content] } : {}),
  };
}

export function braveRouter(options: ResolvedOptions, state: SimulatorState): Router {
  const router = Router();
  const guard = (token: string | undefined, query: unknown): string => {
    const verdict = checkKey(token, options.apiKey);
    if (verdict === 'missing') throw validation(['header', 'x-subscription-token'], 'Field required');
    if (verdict === 'invalid')
      throw braveError(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.', {
        component: 'authentication',
      });
    if (typeof query !== 'string' || !query.trim() || query.length > 400)
      throw validation(['query', 'q'], 'String should have 1 to 400 characters');
    if (has(query, 'upstreamError')) throw braveError(500, 'INTERNAL_ERROR', 'Internal server error.');
    if (has(query, 'overloaded')) throw braveError(503, 'SERVICE_UNAVAILABLE', 'Service temporarily unavailable.');
    if (has(query, 'rateLimited')) {
      throw braveError(
        429,
        'RATE_LIMITED',
        'Request rate limit exceeded for plan.',
        { plan: 'Simulated', rate_limit: 1 },
        { 'retry-after': String(RETRY_AFTER_SECONDS) },
      );
    }
    state.counters.searches++;
    return query;
  };

  router.get('/res/v1/web/search', (req, res) => {
    const q = guard(req.header('x-subscription-token'), req.query.q);
    const count = integerParam(req.query.count, 'count', 20, 1, 20);
    integerParam(req.query.offset, 'offset', 0, 0, 9);
    const hits = searchHits(q, count, freshnessRange(req.query.freshness));
    res.json({
      type: 'search',
      query: {
        original: q,
        show_strict_warning: false,
        is_navigational: false,
        is_news_breaking: false,
        spellcheck_off: true,
        country: 'us',
        bad_results: false,
        should_fallback: false,
        more_results_available: false,
      },
      mixed: { type: 'mixed', main: hits.map((_, index) => ({ type: 'web', index, all: false })), top: [], side: [] },
      web: {
        type: 'search',
        results: hits.map((h) => webResult(h, req.query.extra_snippets === 'true')),
        family_friendly: true,
      },
    });
  });

  router.get('/res/v1/images/search', (req, res) => {
    const q = guard(req.header('x-subscription-token'), req.query.q);
    const count = integerParam(req.query.count, 'count', 50, 1, 200);
    res.json({
      type: 'images',
      query: { original: q, spellcheck_off: true },
      results: searchImages(q, count).map((image, i) => ({
        type: 'image_result',
        title: image.description,
        url: `https://example.com/images/page-${i + 1}`,
        source: 'example.com',
        page_fetched: '2025-01-01T00:00:00Z',
        thumbnail: { src: image.url },
        properties: { url: image.url, placeholder: image.url },
        meta_url: metaUrl(`https://example.com/images/page-${i + 1}`),
        confidence: 'high',
      })),
    });
  });

  router.use(
    familyErrorHandler((status, message) => ({
      type: 'ErrorResponse',
      error: { id: randomUUID(), status, code: 'VALIDATION', detail: message },
      time: Math.floor(Date.now() / 1000),
    })),
  );
  return router;
}
