// /v1/videos: create (JSON or multipart, both request forms, Idempotency-Key), read, list, content redirect, cancel.
import { z } from 'zod';
import { conflict } from '../../../shared/errors/app-error.js';
import { parseOrThrow } from '../../../shared/errors/validation.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { idempotencyKeyHeader } from '../../../shared/idempotency/idempotency-claims.js';
import { normalizeVideoRequest } from '../../../shared/video/video-request.js';
import { cancelVideoTask, createVideoTask, getVideoTask, listVideoTasks } from '../../../shared/video/video-tasks.js';
import { checkedParam, pathParam } from '../../http/path-params.js';
import { query } from '../../http/validate.js';
import { gatewayCallerOf } from '../../middleware/gateway-auth.js';
import { defineRoutes } from '../route.js';
import { bearerGatewayCaller } from './gateway-route.js';
import { presentVideo } from './videos.presenters.js';
import { videoList, video as videoObject } from './videos.responses.js';
import { createVideoBody, listVideosQuery } from './videos.schemas.js';
import { isMultipart, readMultipartVideoBody } from './videos-multipart.js';

const video = {
  ...bearerGatewayCaller,
  params: { id: checkedParam(z.string().min(1).max(64), { invalid: 'Video.InvalidId' }) },
};

export const videosRoutes = defineRoutes([
  {
    method: 'post',
    path: '/videos',
    summary: 'Create a video task (JSON, or multipart/form-data with the same fields; Idempotency-Key honoured)',
    ...bearerGatewayCaller,
    body: createVideoBody,
    idempotencyKey: true,
    gatewayAccounting: 'paid',
    response: videoObject,
    handler: (ctx) => {
      const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
      return async (req, res) => {
        const raw = isMultipart(req) ? await readMultipartVideoBody(req) : (req.body ?? {});
        const input = parseOrThrow(createVideoBody, raw, 'Video.InvalidRequest');
        const key = parseOrThrow(idempotencyKeyHeader, req.header('idempotency-key'), 'Video.InvalidIdempotencyKey');
        const model = registry.resolve(input.model, 'video');
        const normalized = normalizeVideoRequest(input, model, { providerKind: ctx.config.UPSTREAM_VIDEO_KIND });
        const task = await createVideoTask(ctx, gatewayCallerOf(res), {
          model,
          normalized,
          ...(key ? { idempotencyKey: key } : {}),
        });
        res.json(presentVideo(task, { created: true }));
      };
    },
  },
  {
    method: 'get',
    path: '/videos',
    summary: 'List video tasks',
    ...bearerGatewayCaller,
    query: listVideosQuery,
    response: videoList,
    handler: (ctx) => async (req, res) => {
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
    },
  },
  {
    method: 'get',
    path: '/videos/:id',
    summary: 'A video task',
    ...video,
    response: videoObject,
    handler: (ctx) => async (req, res) => {
      res.json(presentVideo(await getVideoTask(ctx, gatewayCallerOf(res), pathParam(req, 'id'))));
    },
  },
  {
    method: 'get',
    path: '/videos/:id/content',
    summary: 'Redirect to the finished video file',
    ...video,
    status: 302,
    content: 'none',
    conflicts: 'Video.NotCompleted: the task is not completed (yet); its content exists once it is.',
    handler: (ctx) => async (req, res) => {
      const task = await getVideoTask(ctx, gatewayCallerOf(res), pathParam(req, 'id'));
      if (task.status !== 'completed' || !task.videoUrl) {
        throw conflict(
          'Video.NotCompleted',
          `Video task ${task.id} is ${task.status}; its content exists once completed.`,
        );
      }
      res.redirect(302, task.videoUrl);
    },
  },
  {
    method: 'post',
    path: '/videos/:id/cancel',
    summary: 'Cancel a video task',
    ...video,
    gatewayAccounting: 'free',
    response: videoObject,
    conflicts: 'Video.NotCancellable: the task is already completed, failed or cancelled.',
    handler: (ctx) => async (req, res) => {
      res.json(presentVideo(await cancelVideoTask(ctx, gatewayCallerOf(res), pathParam(req, 'id'))));
    },
  },
]);
