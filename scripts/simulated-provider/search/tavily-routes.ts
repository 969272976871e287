// Tavily wire format: POST /search with `Authorization: Bearer` or `api_key` in the body; errors as `{detail:{error}}`.
import express, { Router } from 'express';
import { seededRandom, stableId } from '../deterministic.js';
import type { ResolvedOptions } from '../options.js';
import { bearerToken, checkKey, familyErrorHandler, ProviderError } from '../provider-error.js';
import type { SimulatorState } from '../simulator-state.js';
import { has, RETRY_AFTER_SECONDS } from '../triggers.js';
import { searchHits, searchImages } from './search-hits.js';

const DEPTHS = ['basic', 'advanced', 'fast', 'ultra-fast'];
const TOPICS = ['general', 'news', 'finance'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const tavilyError = (status: number, error: string, headers: Record<string, string> = {}) =>
  new ProviderError(status, { detail: { error } }, headers);

type TavilyRequest = {
  query?: unknown;
  api_key?: unknown;
  max_results?: unknown;
  include_images?: unknown;
  include_image_descriptions?: unknown;
  include_raw_content?: unknown;
  include_answer?: unknown;
  include_favicon?: unknown;
  start_date?: unknown;
  end_date?: unknown;
  topic?: unknown;
  search_depth?: unknown;
};

function validate(body: TavilyRequest) {
  if (typeof body.query !== 'string' || !body.query.trim()) throw tavilyError(400, 'Query is missing.');
  const maxResults = body.max_results ?? 5;
  if (typeof maxResults !== 'number' || !Number.isInteger(maxResults) || maxResults < 0 || maxResults > 20) {
    throw tavilyError(400, 'max_results must be an integer between 0 and 20.');
  }
  for (const name of ['start_date', 'end_date'] as const) {
    const value = body[name];
    if (value !== undefined && (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value)))) {
      throw tavilyError(400, `Invalid ${name} format. Use YYYY-MM-DD.`);
    }
  }
  if (body.start_date && body.end_date && String(body.start_date) > String(body.end_date)) {
    throw tavilyError(400, 'start_date must be before end_date.');
  }
  if (body.topic !== undefined && !TOPICS.includes(String(body.topic)))
    throw tavilyError(400, `Invalid topic. Must be one of ${TOPICS.join(', ')}.`);
  if (body.search_depth !== undefined && !DEPTHS.includes(String(body.search_depth))) {
    throw tavilyError(400, `Invalid search_depth. Must be one of ${DEPTHS.join(', ')}.`);
  }
  return { query: body.query, maxResults };
}

export function tavilyRouter(options: ResolvedOptions, state: SimulatorState): Router {
  const router = Router();
  router.post('/search', express.json({ limit: '1mb' }), (req, res) => {
    const body = (req.body ?? {}) as TavilyRequest;
    if (res.locals.recorded) res.locals.recorded.body = body;
    const key =
      bearerToken(req.header('authorization')) ?? (typeof body.api_key === 'string' ? body.api_key : undefined);
    if (checkKey(key, options.apiKey) !== 'ok') throw tavilyError(401, 'Unauthorized: missing or invalid API key.');
    state.counters.searches++;
    const { query, maxResults } = validate(body);
    if (has(query, 'upstreamError')) throw tavilyError(500, 'Internal Server Error');
    if (has(query, 'overloaded')) throw tavilyError(503, 'Service temporarily unavailable.');
    if (has(query, 'rateLimited')) {
      throw tavilyError(429, 'Your request has been blocked due to excessive requests.', {
        'retry-after': String(RETRY_AFTER_SECONDS),
      });
    }
    const range = { start: body.start_date as string | undefined, end: body.end_date as string | undefined };
    const images = body.include_images === true ? searchImages(query, Math.min(5, Math.max(1, maxResults))) : [];
    res.json({
      query,
      follow_up_questions: null,
      answer: body.include_answer ? `A simulated answer about "${query}".` : null,
      images: body.include_image_descriptions === true ? images : images.map((i) => i.url),
      results: searchHits(query, maxResults, range).map((hit) => ({
        url: hit.url,
        title: hit.title,
        content: hit.content,
        score: hit.score,
        raw_content: body.include_raw_content ? hit.rawContent : null,
        ...(body.topic === 'news' ? { published_date: hit.publishedDate } : {}),
        ...(body.include_favicon === true ? { favicon: 'https://example.com/favicon.ico' } : {}),
      })),
      response_time: Math.round((0.2 + seededRandom(query)() * 0.8) * 100) / 100,
      request_id: stableId('', body, 32),
    });
  });
  router.use(familyErrorHandler((_status, message) => ({ detail: { error: message } })));
  return router;
}
