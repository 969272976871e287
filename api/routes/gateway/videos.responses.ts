// What the video routes answer (videos.presenters.ts), as the OpenAPI document shows it: OpenAI's video object as
// the gateway presents it, its fields per status, and the list of them.
import { z } from 'zod';
import { videoStatuses } from '../../../shared/db/schema/index.js';

const seconds = z.number().int().positive();

export const video = z
  .object({
    id: z.string().meta({ description: '`video_` and a sortable random id; the upstream task id is never shown.' }),
    task_id: z.string().optional().meta({ description: 'The create answer only: the same as `id`.' }),
    object: z.literal('video'),
    model: z.string(),
    status: z.enum(videoStatuses),
    progress: z.number().int().min(0).max(100),
    created_at: z.number().int().optional().meta({ description: 'The create answer only: Unix seconds.' }),
    seconds,
    usage: z
      .object({ seconds, video_count: z.literal(1) })
      .optional()
      .meta({ description: 'Once completed.' }),
    video_url: z.string().optional().meta({ description: 'Once completed: the public (CDN) URL of the stored file.' }),
    metadata: z
      .object({ url: z.string(), object_store_url: z.string(), object_store_key: z.string() })
      .optional()
      .meta({ description: 'Once completed: where the file is stored.' }),
    error: z.object({ message: z.string(), type: z.string() }).optional().meta({ description: 'Once failed.' }),
  })
  .meta({ id: 'Video' });

export const videoList = z.object({
  object: z.literal('list'),
  data: z.array(video),
  first_id: z.string().nullable().meta({ description: 'null on an empty page.' }),
  last_id: z.string().nullable().meta({ description: 'null on an empty page.' }),
  has_more: z.boolean(),
});
