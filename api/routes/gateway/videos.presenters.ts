// The video object of seed 02, per status: usage, video_url and metadata only once completed; error when failed;
// task_id and created_at on the create response. Upstream ids and URLs are never shown.
import type { VideoTask } from '../../../shared/video/video-store.js';

export function presentVideo(task: VideoTask, options: { created?: boolean } = {}) {
  const completed = task.status === 'completed';
  return {
    id: task.id,
    ...(options.created ? { task_id: task.id } : {}),
    object: 'video' as const,
    model: task.model,
    status: task.status,
    progress: completed ? 100 : task.status === 'queued' ? 0 : task.progress,
    ...(options.created ? { created_at: Math.floor(task.createdAt.getTime() / 1000) } : {}),
    seconds: task.seconds,
    ...(completed
      ? {
          usage: { seconds: task.seconds, video_count: 1 },
          video_url: task.videoUrl,
          metadata: { url: task.videoUrl, object_store_url: task.objectStoreUrl, object_store_key: task.objectKey },
        }
      : {}),
    ...(task.status === 'failed'
      ? { error: { message: task.errorMessage ?? 'Video generation failed.', type: task.errorType ?? 'server_error' } }
      : {}),
  };
}
