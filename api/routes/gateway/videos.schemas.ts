// Request schemas of /v1/videos: the multimodal `content[]` form and the flat OpenAI-compatible form in one body.
import { z } from 'zod';

const positiveInteger = (name: string) =>
  z.union([
    z.number().int().positive().max(600),
    z
      .string()
      .regex(/^[1-9]\d{0,2}$/, `${name} must be a positive integer`)
      .transform(Number)
      // The same bound as the number form: a string of up to three digits reached 999 s.
      .pipe(z.number().max(600, `${name} must be at most 600`)),
  ]);

const booleanish = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

const contentItem = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string().max(20_000) }),
  z.object({
    type: z.literal('image_url'),
    image_url: z.object({ url: z.string().min(1) }),
    role: z.enum(['reference_image', 'first_frame', 'last_frame']).default('reference_image'),
  }),
]);

export const createVideoBody = z.object({
  model: z.string().min(1).max(100),
  prompt: z.string().max(20_000).optional(),
  duration: positiveInteger('duration').optional(),
  seconds: positiveInteger('seconds').optional(),
  ratio: z
    .string()
    .regex(/^[1-9]\d{0,3}:[1-9]\d{0,3}$/, 'ratio must have the form W:H, e.g. 16:9')
    .optional(),
  resolution: z.string().max(16).optional(),
  size: z
    .string()
    .regex(/^[1-9]\d{1,4}x[1-9]\d{1,4}$/, 'size must have the form WxH, e.g. 1280x720')
    .optional(),
  generate_audio: booleanish.optional(),
  content: z.array(contentItem).max(100).optional(),
  input_reference: z.union([z.string().min(1), z.object({ image_url: z.string().min(1) })]).optional(),
});

export type CreateVideoBody = z.output<typeof createVideoBody>;

export const listVideosQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().max(64).optional(),
});
