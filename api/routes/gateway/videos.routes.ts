// /v1/videos: create (JSON or multipart, both request forms, Idempotency-Key), read, list, content redirect, cancel.
import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../../shared/context.js';
import { conflict } from '../../../shared/errors/app-error.js';
import { parseOrThrow } from '../../../shared/errors/validation.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { normalizeVideoRequest } from '../../../shared/video/video-request.js';
import { cancelVideoTask, createVideoTask, getVideoTask, listVideoTasks } from '../../../shared/video/video-tasks.js';
import { query } from '../../http/validate.js';
import { gatewayAuth, gatewayCallerOf } from '../../middleware/gateway-auth.js';
import { presentVideo } from './videos.presenters.js';
import { createVideoBody, listVideosQuery } from './videos.schemas.js';
import { isMultipart, readMultipartVideoBody } from './videos-multipart.js';

const idempotencyKey = z.string().min(1).max(255).optional();
const videoId = (value: unknown) => parseOrThrow(z.string().min(1).max(64), value, 'Video.InvalidId');

export function videosRoutes(ctx: AppContext): Router {
  const router = Router();
  const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
  const auth = gatewayAuth(ctx);

  router.post('/v1/videos', ...auth, async (req, res) => {
    const raw = isMultipart(req) ? await readMultipartVideoBody(req, res) : (req.body ?? {});
    const input = parseOrThrow(createVideoBody, raw, 'Video.InvalidRequest');
    const key = parseOrThrow(idempotencyKey, req.header('idempotency-key'), 'Video.InvalidIdempotencyKey');
    const model = registry.resolve(input.model, 'video');
    const normalized = normalizeVideoRequest(input, model);
    const task = await createVideoTask(ctx, gatewayCallerOf(res), {
      model,
      normalized,
      ...(key ? { idempotencyKey: key } : {}),
    });
    res.json(presentVideo(task, { created: true }));
  });

  router.get('/v1/videos', ...auth, async (req, res) => {
    const page = query(req, listVideosQuery, 'Video.InvalidQuery');
    const { tasks, hasMore } = await listVideoTasks(ctx, gatewayCallerOf(res), page);
    const data = tasks.map((t) => presentVideo(t));
    res.json({
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: hasMore,
    });
  });

  router.get('/v1/videos/:id', ...auth, async (req, res) => {
    res.json(presentVideo(await getVideoTask(ctx, gatewayCallerOf(res), videoId(req.params.id))));
  });

  router.get('/v1/videos/:id/content', ...auth, async (req, res) => {
    const task = await getVideoTask(ctx, gatewayCallerOf(res), videoId(req.params.id));
    if (task.status !== 'completed' || !task.videoUrl) {
      throw conflict(
        'Video.NotCompleted',
        `Video task ${task.id} is ${task.status}; its content exists once completed.`,
      );
    }
    res.redirect(302, task.videoUrl);
  });

  router.post('/v1/videos/:id/cancel', ...auth, async (req, res) => {
    res.json(presentVideo(await cancelVideoTask(ctx, gatewayCallerOf(res), videoId(req.params.id))));
  });

  return router;
}
