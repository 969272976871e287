// OpenAI videos wire format: POST /v1/videos (JSON or multipart), GET /v1/videos[/{id}], GET /v1/videos/{id}/content
// (the MP4 bytes), DELETE /v1/videos/{id}.
import express, { type Request, type RequestHandler, Router } from 'express';
import { randomId } from '../deterministic.js';
import type { ResolvedOptions } from '../options.js';
import { bearerToken, checkKey, familyErrorHandler, ProviderError } from '../provider-error.js';
import type { SimulatorState } from '../simulator-state.js';
import { has, RETRY_AFTER_SECONDS } from '../triggers.js';
import { parseMultipart } from './multipart-body.js';
import type { VideoTask, VideoTaskStore } from './video-tasks.js';

type OpenAiVideoParams = { seconds: string; size: string; inputReference?: unknown };

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
const EXPIRES_AFTER_S = 24 * 3600;

export function openAiError(status: number, message: string, param: string | null = null, code: string | null = null) {
  const type = status >= 500 ? 'server_error' : status === 429 ? 'rate_limit_error' : 'invalid_request_error';
  return { error: { message, type, param, code } };
}

const fail = (status: number, message: string, param: string | null = null, code: string | null = null, headers = {}) =>
  new ProviderError(status, openAiError(status, message, param, code), headers);

async function readCreateBody(req: Request): Promise<Record<string, unknown>> {
  const contentType = req.header('content-type') ?? '';
  if (!contentType.startsWith('multipart/form-data')) return (req.body ?? {}) as Record<string, unknown>;
  const { fields, files } = await parseMultipart(req.body as Buffer, contentType);
  const body: Record<string, unknown> = { ...fields };
  if (files.input_reference) body.input_reference = files.input_reference;
  const imageUrl = fields['input_reference[image_url]'];
  const fileId = fields['input_reference[file_id]'];
  if (imageUrl || fileId) body.input_reference = { image_url: imageUrl, file_id: fileId };
  delete body['input_reference[image_url]'];
  delete body['input_reference[file_id]'];
  return body;
}

function checkReference(reference: unknown): void {
  if (reference === undefined) return;
  if (typeof reference !== 'object' || reference === null)
    throw fail(400, 'Invalid input_reference.', 'input_reference', 'invalid_value');
  const ref = reference as { contentType?: string; image_url?: string; file_id?: string };
  if (ref.contentType !== undefined && !IMAGE_TYPES.includes(ref.contentType)) {
    throw fail(
      400,
      `Unsupported mimetype ('${ref.contentType}'). Supported: ${IMAGE_TYPES.join(', ')}.`,
      'input_reference',
      'unsupported_file',
    );
  }
  if (ref.contentType === undefined && !ref.image_url && !ref.file_id) {
    throw fail(400, 'input_reference needs image_url or file_id.', 'input_reference', 'invalid_value');
  }
}

function parseCreate(body: Record<string, unknown>) {
  const prompt = body.prompt;
  if (typeof prompt !== 'string' || !prompt.trim())
    throw fail(400, "Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  const seconds = String(body.seconds ?? '4');
  if (!/^[1-9]\d*$/.test(seconds))
    throw fail(400, `Invalid value for 'seconds': '${seconds}'.`, 'seconds', 'invalid_value');
  const size = String(body.size ?? '720x1280');
  if (!/^[1-9]\d*x[1-9]\d*$/.test(size))
    throw fail(400, `Invalid value for 'size': '${size}'.`, 'size', 'invalid_value');
  checkReference(body.input_reference);
  const model = typeof body.model === 'string' && body.model ? body.model : 'sora-2';
  return { model, prompt, params: { seconds, size, inputReference: body.input_reference } satisfies OpenAiVideoParams };
}

export function openAiVideoRouter(options: ResolvedOptions, state: SimulatorState, store: VideoTaskStore, mp4: Buffer) {
  const router = Router();
  const bodies = [express.json({ limit: '64mb' }), express.raw({ type: 'multipart/form-data', limit: '64mb' })];
  const authenticate: RequestHandler = (req, _res, next) => {
    const verdict = checkKey(bearerToken(req.header('authorization')), options.apiKey);
    if (verdict === 'ok') return next();
    if (verdict === 'missing')
      return next(fail(401, "You didn't provide an API key. Send it as `Authorization: Bearer <key>`."));
    next(fail(401, 'Incorrect API key provided.', null, 'invalid_api_key'));
  };
  const find = (id: string) => {
    const task = store.get<OpenAiVideoParams>('openai', id);
    if (!task) throw fail(404, `Video with id '${id}' not found.`, 'video_id', 'video_not_found');
    return task;
  };

  function present(task: VideoTask<OpenAiVideoParams>) {
    const phase = store.phase(task);
    const status =
      phase.status === 'running' ? 'in_progress' : phase.status === 'succeeded' ? 'completed' : phase.status;
    const finishedAt = status === 'completed' || status === 'failed' ? Math.floor(phase.sinceMs / 1000) : null;
    return {
      id: task.id,
      object: 'video',
      model: task.model,
      status,
      progress: phase.progress,
      created_at: Math.floor(task.createdAtMs / 1000),
      completed_at: finishedAt,
      expires_at: status === 'completed' && finishedAt ? finishedAt + EXPIRES_AFTER_S : null,
      error:
        status === 'failed'
          ? {
              code: 'video_generation_failed',
              message: 'The simulated provider failed this video (prompt holds [fail] or [fail-once]).',
            }
          : null,
      prompt: task.prompt,
      remixed_from_video_id: null,
      seconds: task.params.seconds,
      size: task.params.size,
    };
  }

  router.post('/v1/videos', authenticate, ...bodies, async (req, res) => {
    const body = await readCreateBody(req);
    if (res.locals.recorded) res.locals.recorded.body = body;
    const text = typeof body.prompt === 'string' ? body.prompt : '';
    if (has(text, 'upstreamError')) throw fail(500, 'The server had an error while processing your request.');
    if (has(text, 'rateLimited')) {
      throw fail(429, 'Rate limit reached for video requests.', null, 'rate_limit_exceeded', {
        'retry-after': String(RETRY_AFTER_SECONDS),
      });
    }
    const { model, prompt, params } = parseCreate(body);
    const task = store.create('openai', randomId('video_', 32), model, prompt, params);
    state.counters.videoTasksCreated++;
    res.json(present(task));
  });

  router.get('/v1/videos', authenticate, (req, res) => {
    const limit = Math.min(100, Math.max(1, Number(req.query.limit ?? 20) || 20));
    let tasks = store.list<OpenAiVideoParams>('openai');
    if (req.query.order !== 'asc') tasks = tasks.reverse();
    const after = tasks.findIndex((t) => t.id === req.query.after);
    const page = tasks.slice(after + 1, after + 1 + limit).map(present);
    res.json({
      object: 'list',
      data: page,
      first_id: page[0]?.id ?? null,
      last_id: page.at(-1)?.id ?? null,
      has_more: after + 1 + limit < tasks.length,
    });
  });

  router.get('/v1/videos/:id', authenticate, (req, res) => {
    res.json(present(find(String(req.params.id))));
  });

  router.get('/v1/videos/:id/content', authenticate, (req, res) => {
    const video = present(find(String(req.params.id)));
    const variant = req.query.variant ?? 'video';
    if (variant !== 'video')
      throw fail(404, `The ${String(variant)} variant is not available from the simulated provider.`, 'variant');
    if (video.status !== 'completed')
      throw fail(
        404,
        `Video '${video.id}' is not ready: its status is ${video.status}.`,
        'video_id',
        'video_not_ready',
      );
    res
      .status(200)
      .set({ 'content-type': 'video/mp4', 'content-length': String(mp4.length) })
      .end(mp4);
  });

  router.delete('/v1/videos/:id', authenticate, (req, res) => {
    const id = String(req.params.id);
    find(id);
    store.delete('openai', id);
    res.json({ id, object: 'video.deleted', deleted: true });
  });

  router.use(familyErrorHandler((status, message) => openAiError(status, message)));
  return router;
}
