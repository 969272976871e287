// Seedance (Volcengine Ark) content generation tasks: create, get, list, and DELETE (cancel or remove).
import { randomBytes } from 'node:crypto';
import express, { type RequestHandler, Router } from 'express';
import { seededRandom } from '../deterministic.js';
import type { ResolvedOptions } from '../options.js';
import { bearerToken, checkKey, familyErrorHandler, ProviderError } from '../provider-error.js';
import type { SimulatorState } from '../simulator-state.js';
import { has, RETRY_AFTER_SECONDS } from '../triggers.js';
import { arkError, parseSeedanceRequest, type SeedanceParams, seedanceTokens } from './seedance-params.js';
import type { VideoTask, VideoTaskStore } from './video-tasks.js';

const BASE = '/api/v3/contents/generations/tasks';

function newTaskId(now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  return `cgt-${stamp}-${randomBytes(4).readUInt32LE(0).toString(36).padStart(5, '0').slice(0, 5)}`;
}

const seconds = (ms: number) => Math.floor(ms / 1000);

export function seedanceRouter(
  options: ResolvedOptions,
  state: SimulatorState,
  store: VideoTaskStore,
  videoUrl: (id: string) => string,
) {
  const router = Router();
  const json = express.json({ limit: '64mb' });
  const authenticate: RequestHandler = (req, _res, next) => {
    if (checkKey(bearerToken(req.header('authorization')), options.apiKey) === 'ok') return next();
    next(
      new ProviderError(
        401,
        arkError(401, 'AuthenticationError', 'The API key or AK/SK in the request is missing or invalid.'),
      ),
    );
  };
  const find = (id: string) => {
    const task = store.get<SeedanceParams>('seedance', id);
    if (!task)
      throw new ProviderError(404, arkError(404, 'ResourceNotFound', `The specified task ${id} is not found.`, 'id'));
    return task;
  };

  function present(task: VideoTask<SeedanceParams>) {
    const phase = store.phase(task);
    const { params } = task;
    const succeeded = phase.status === 'succeeded';
    const tokens = seedanceTokens(params);
    return {
      id: task.id,
      model: task.model,
      status: phase.status,
      error:
        phase.status === 'failed'
          ? {
              code: 'InternalServiceError',
              message: 'The simulated provider failed this video task (prompt holds [fail] or [fail-once]).',
            }
          : null,
      ...(succeeded
        ? { content: { video_url: videoUrl(task.id) }, usage: { completion_tokens: tokens, total_tokens: tokens } }
        : {}),
      seed: params.seed,
      resolution: params.resolution,
      ratio: params.ratio,
      duration: params.duration,
      framespersecond: params.framespersecond,
      ...(params.generate_audio === undefined ? {} : { generate_audio: params.generate_audio }),
      created_at: seconds(task.createdAtMs),
      updated_at: seconds(phase.sinceMs),
    };
  }

  router.post(BASE, authenticate, json, (req, res) => {
    if (res.locals.recorded) res.locals.recorded.body = req.body;
    const body = (req.body ?? {}) as Record<string, unknown>;
    const textPrompt = Array.isArray(body.content) ? JSON.stringify(body.content) : '';
    if (has(textPrompt, 'upstreamError')) {
      throw new ProviderError(
        500,
        arkError(500, 'InternalServiceError', 'The service encountered an unexpected internal error.'),
      );
    }
    if (has(textPrompt, 'rateLimited')) {
      throw new ProviderError(
        429,
        arkError(429, 'RateLimitExceeded.EndpointRPMExceeded', 'Too many requests for this endpoint.'),
        {
          'retry-after': String(RETRY_AFTER_SECONDS),
        },
      );
    }
    const seed = Math.floor(seededRandom(body)() * 2 ** 31);
    const { model, params } = parseSeedanceRequest(body, seed);
    const task = store.create('seedance', newTaskId(new Date()), model, params.prompt, params);
    state.counters.videoTasksCreated++;
    res.json({ id: task.id });
  });

  router.get(BASE, authenticate, (req, res) => {
    const pageNum = Math.max(1, Number(req.query.page_num ?? 1) || 1);
    const pageSize = Math.min(500, Math.max(1, Number(req.query.page_size ?? 10) || 10));
    const status = req.query['filter.status'];
    const items = store
      .list<SeedanceParams>('seedance')
      .map(present)
      .filter((t) => !status || t.status === status)
      .reverse();
    res.json({ items: items.slice((pageNum - 1) * pageSize, pageNum * pageSize), total: items.length });
  });

  router.get(`${BASE}/:id`, authenticate, (req, res) => {
    res.json(present(find(String(req.params.id))));
  });

  router.delete(`${BASE}/:id`, authenticate, (req, res) => {
    find(String(req.params.id));
    store.cancelOrDelete('seedance', String(req.params.id));
    res.json({});
  });

  router.use(
    familyErrorHandler((status, message) =>
      arkError(status, status === 400 ? 'InvalidParameter' : 'InternalServiceError', message),
    ),
  );
  return router;
}
