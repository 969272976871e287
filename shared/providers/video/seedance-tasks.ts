// Seedance (Volcengine Ark) content generation tasks: POST/GET/DELETE /api/v3/contents/generations/tasks.
import type { Config } from '../../config/index.js';
import { seedancePromptCommand } from '../../video/video-request.js';
import { upstreamClient } from '../upstream-client.js';
import {
  callVideoUpstream,
  UpstreamVideoError,
  type UpstreamVideoState,
  type VideoProvider,
} from './video-provider.js';

const TASKS = 'api/v3/contents/generations/tasks';

type ArkTask = {
  id: string;
  status: string;
  error?: { message?: string } | null;
  content?: { video_url?: string };
};

export function seedanceVideoProvider(config: Config): VideoProvider {
  const client = () => upstreamClient(config);
  const call = (path: string, method: string, body?: unknown) =>
    callVideoUpstream(config, 'seedance', { path, method, body });

  return {
    kind: 'seedance',
    async submit(request) {
      // Refused at create (shared/video/video-request.ts); a task created while the upstream was another kind is
      // refused here rather than read by Seedance (a permanent 4xx fails the task and releases its reservation).
      const command = seedancePromptCommand(request.prompt);
      if (command) throw new UpstreamVideoError(`the prompt holds the parameter command ${command}`, 400);
      const content: unknown[] = [{ type: 'text', text: request.prompt }];
      for (const image of request.images) {
        content.push({ type: 'image_url', image_url: { url: image.url }, role: image.role });
      }
      const created = (await call(TASKS, 'POST', {
        model: request.upstreamModel,
        content,
        duration: request.seconds,
        ...(request.ratio ? { ratio: request.ratio } : {}),
        ...(request.resolution ? { resolution: request.resolution } : {}),
        ...(request.generateAudio === undefined ? {} : { generate_audio: request.generateAudio }),
      })) as { id?: string };
      if (!created.id) throw new UpstreamVideoError('upstream answered without a task id', 502);
      return created.id;
    },
    async status(upstreamId) {
      const task = (await call(`${TASKS}/${encodeURIComponent(upstreamId)}`, 'GET')) as ArkTask;
      const state: UpstreamVideoState['state'] =
        task.status === 'succeeded' || task.status === 'failed' || task.status === 'cancelled'
          ? task.status
          : task.status === 'running'
            ? 'running'
            : 'queued';
      return {
        state,
        ...(state === 'succeeded' ? { progress: 100 } : {}),
        ...(task.error?.message ? { error: task.error.message } : {}),
        ...(task.content?.video_url ? { videoUrl: task.content.video_url } : {}),
      };
    },
    async download(_upstreamId, state, maxBytes) {
      if (!state.videoUrl) throw new UpstreamVideoError('the finished upstream task has no video_url', 502);
      const reply = await client().stream(state.videoUrl, { maxBytes, maxRedirects: 3, timeoutMs: 15 * 60_000 });
      if (reply.status !== 200) {
        reply.body.destroy();
        throw new UpstreamVideoError(`upstream video download answered ${reply.status}`, reply.status);
      }
      return reply.body;
    },
    async cancel(upstreamId) {
      await call(`${TASKS}/${encodeURIComponent(upstreamId)}`, 'DELETE').catch((err: unknown) => {
        if (err instanceof UpstreamVideoError && err.status === 404) return;
        throw err;
      });
    },
  };
}
