// Rehosting: the finished upstream video is streamed (never whole in memory) into object storage under
// videos/<task id>.mp4; the public (CDN) URL and the store's own URL are what callers see.
import type { AppContext } from '../context.js';
import type { UpstreamVideoState, VideoProvider } from '../providers/video/index.js';

export const MAX_VIDEO_BYTES = 2 * 1024 ** 3;

export type RehostedVideo = { objectKey: string; videoUrl: string; objectStoreUrl: string };

export const videoObjectKey = (taskId: string) => `videos/${taskId}.mp4`;

export async function rehostVideo(
  ctx: AppContext,
  provider: VideoProvider,
  taskId: string,
  upstreamTaskId: string,
  state: UpstreamVideoState,
): Promise<RehostedVideo> {
  const key = videoObjectKey(taskId);
  const body = await provider.download(upstreamTaskId, state, MAX_VIDEO_BYTES);
  await ctx.storage.put(key, body, { contentType: 'video/mp4', maxBytes: MAX_VIDEO_BYTES });
  return { objectKey: key, videoUrl: ctx.storage.publicUrl(key), objectStoreUrl: ctx.storage.originUrl(key) };
}
