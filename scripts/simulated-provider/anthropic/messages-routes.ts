// Anthropic Messages wire format: POST /v1/messages (JSON or SSE), POST /v1/messages/count_tokens, GET /v1/models.
import express, { type RequestHandler, Router } from 'express';
import type { ResolvedOptions } from '../options.js';
import { bearerToken, checkKey, familyErrorHandler } from '../provider-error.js';
import type { SimulatorState } from '../simulator-state.js';
import { writeSse } from '../sse-writer.js';
import { has } from '../triggers.js';
import { composeAnswer } from './answer.js';
import { anthropicError, anthropicErrorBody, newRequestId, rateLimited } from './errors.js';
import { findModel, listModels } from './models.js';
import { PromptCache } from './prompt-cache.js';
import {
  betasOf,
  lastUserText,
  type MessagesRequest,
  parseCountTokensRequest,
  parseMessagesRequest,
} from './request.js';
import { streamEvents } from './stream-events.js';
import { countInputTokens, promptSegments } from './token-count.js';

const STREAM_ERROR_AFTER_DELTAS = 3;

function presentedKey(req: express.Request): string | undefined {
  return req.header('x-api-key')?.trim() || bearerToken(req.header('authorization'));
}

/**
 * The request as its first fallback serves it when its own model is overloaded (a prompt with `[overloaded]`): that
 * model, with the entry's own `max_tokens` if it names one, answers and names itself in the answer's `model`. A request
 * without fallbacks is refused 529, as Anthropic answers an overloaded model.
 */
function servedByFallback(request: MessagesRequest): MessagesRequest {
  const fallback = request.fallbacks?.[0];
  if (!fallback) throw anthropicError(529, 'Overloaded');
  return { ...request, model: fallback.model, max_tokens: fallback.max_tokens ?? request.max_tokens };
}

export function anthropicRouter(options: ResolvedOptions, state: SimulatorState): Router {
  const router = Router();
  const cache = new PromptCache();
  const json = express.json({ limit: '32mb' });

  const authenticate: RequestHandler = (req, _res, next) => {
    const verdict = checkKey(presentedKey(req), options.apiKey);
    if (verdict === 'missing') return next(anthropicError(401, 'x-api-key header is required'));
    if (verdict === 'invalid') return next(anthropicError(401, 'invalid x-api-key'));
    next();
  };
  const record: RequestHandler = (req, res, next) => {
    if (res.locals.recorded) res.locals.recorded.body = req.body;
    next();
  };

  router.post('/v1/messages', authenticate, json, record, async (req, res) => {
    state.counters.messages++;
    const asked = parseMessagesRequest(req.body, betasOf(req.header('anthropic-beta')));
    const prompt = lastUserText(asked.messages);
    if (has(prompt, 'upstreamError')) throw anthropicError(500, 'Internal server error');
    const request = has(prompt, 'overloaded') ? servedByFallback(asked) : asked;
    if (has(prompt, 'rateLimited')) throw rateLimited();
    if (has(prompt, 'streamError') && !request.stream) throw anthropicError(529, 'Overloaded');

    const scope = `${presentedKey(req)}|${request.model}`;
    const message = composeAnswer(request, cache.apply(scope, promptSegments(request)));
    const requestId = newRequestId();
    if (!request.stream) {
      res.set('request-id', requestId).json(message);
      return;
    }
    const events = streamEvents(message, {
      failAfterDeltas: has(prompt, 'streamError') ? STREAM_ERROR_AFTER_DELTAS : undefined,
    });
    const delay = has(prompt, 'slow') ? options.slowChunkDelayMs : options.chunkDelayMs;
    const outcome = await writeSse(res, events, delay, { 'request-id': requestId });
    if (outcome === 'completed') state.counters.messageStreamsCompleted++;
    else state.counters.messageStreamsAborted++;
  });

  router.post('/v1/messages/count_tokens', authenticate, json, record, (req, res) => {
    state.counters.countTokens++;
    const request = parseCountTokensRequest(req.body, betasOf(req.header('anthropic-beta')));
    res.set('request-id', newRequestId()).json({ input_tokens: countInputTokens(request) });
  });

  router.get('/v1/models', authenticate, (_req, res) => {
    res.set('request-id', newRequestId()).json(listModels());
  });

  router.get('/v1/models/:id', authenticate, (req, res) => {
    const model = findModel(String(req.params.id));
    if (!model) throw anthropicError(404, `model: ${String(req.params.id)}`);
    res.set('request-id', newRequestId()).json(model);
  });

  router.use(familyErrorHandler(anthropicErrorBody));
  return router;
}
