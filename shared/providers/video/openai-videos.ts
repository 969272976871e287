// OpenAI videos: POST /v1/videos, GET /v1/videos/{id}, GET /v1/videos/{id}/content, DELETE /v1/videos/{id}.
import type { Config } from '../../config/index.js';
import { upstreamClient } from '../upstream-client.js';
import {
  callVideoUpstream,
  UpstreamVideoError,
  type UpstreamVideoState,
  upstreamVideoBase,
  type VideoProvider,
} from './video-provider.js';

type OpenAiVideo = { id: string; status: string; progress?: number; error?: { message?: string } | null };

const RESOLUTION_SIZES: Record<string, [number, number]> = {
  '480p': [854, 480],
  '720p': [1280, 720],
  '1080p': [1920, 1080],
};

/** `WxH` for OpenAI from a W:H ratio and a resolution (the short side), default 720p landscape. */
export function sizeFor(ratio: string | undefined, resolution: string | undefined): string {
  const [long, short] = RESOLUTION_SIZES[resolution ?? '720p'] ?? [1280, 720];
  const [w, h] = (ratio ?? '16:9').split(':').map(Number) as [number, number];
  if (!w || !h || w === h) return `${short}x${short}`;
  return w > h ? `${long}x${short}` : `${short}x${long}`;
}

export function openAiVideoProvider(config: Config): VideoProvider {
  const client = () => upstreamClient(config);
  const call = (path: string, method: string, body?: unknown) =>
    callVideoUpstream(config, 'openai-videos', { path, method, body });

  return {
    kind: 'openai',
    async submit(request) {
      const reference = request.images[0];
      const created = (await call('v1/videos', 'POST', {
        model: request.upstreamModel,
        prompt: request.prompt,
        seconds: String(request.seconds),
        size: request.size ?? sizeFor(request.ratio, request.resolution),
        ...(reference ? { input_reference: { image_url: reference.url } } : {}),
      })) as OpenAiVideo;
      if (!created.id) throw new UpstreamVideoError('upstream answered without a video id', 502);
      return created.id;
    },
    async status(upstreamId) {
      const video = (await call(`v1/videos/${encodeURIComponent(upstreamId)}`, 'GET')) as OpenAiVideo;
      const state: UpstreamVideoState['state'] =
        video.status === 'completed'
          ? 'succeeded'
          : video.status === 'failed'
            ? 'failed'
            : video.status === 'cancelled'
              ? 'cancelled'
              : video.status === 'in_progress'
                ? 'running'
                : 'queued';
      return {
        state,
        ...(typeof video.progress === 'number' ? { progress: video.progress } : {}),
        ...(video.error?.message ? { error: video.error.message } : {}),
      };
    },
    async download(upstreamId, _state, maxBytes) {
      const { base, headers } = upstreamVideoBase(config);
      const reply = await client().stream(new URL(`v1/videos/${encodeURIComponent(upstreamId)}/content`, base), {
        headers,
        maxBytes,
        maxRedirects: 3,
        timeoutMs: 15 * 60_000,
      });
      if (reply.status !== 200) {
        reply.body.destroy();
        throw new UpstreamVideoError(`upstream video download answered ${reply.status}`, reply.status);
      }
      return reply.body;
    },
    async cancel(upstreamId) {
      await call(`v1/videos/${encodeURIComponent(upstreamId)}`, 'DELETE').catch((err: unknown) => {
        if (err instanceof UpstreamVideoError && err.status === 404) return;
        throw err;
      });
    },
  };
}
