// Multipart bodies of POST /v1/videos (as the openai SDK sends them): fields, and `input_reference` as an image
// file (read in memory, at most 30 MB) that becomes a data URL; `input_reference[image_url]` as a field.
import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { badRequest } from '../../../shared/errors/app-error.js';
import { MAX_IMAGE_BYTES } from '../../../shared/video/video-request.js';

const upload = multer({
  storage: multer.memoryStorage(),
  // A 30 MB image as a data URL field is ~40 MB of base64; anything larger is refused as a 400.
  limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 30, fieldSize: Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64 },
});

const limitMessages: Record<string, string> = {
  LIMIT_FILE_SIZE: 'input_reference: the image is larger than 30 MB.',
  LIMIT_FIELD_VALUE: 'A field is larger than 30 MB of image data.',
  LIMIT_FILE_COUNT: 'Only one input_reference file is accepted.',
  LIMIT_UNEXPECTED_FILE: 'Only the input_reference field may carry a file.',
};

export const isMultipart = (req: Request) => /^multipart\/form-data\b/i.test(req.header('content-type') ?? '');

/** Reads the multipart body into the same shape as the JSON form. */
export async function readMultipartVideoBody(req: Request, res: Response): Promise<Record<string, unknown>> {
  await new Promise<void>((resolve, reject) =>
    upload.single('input_reference')(req, res, (err: unknown) => {
      if (!err) return resolve();
      if (err instanceof MulterError) {
        return reject(badRequest('Video.InvalidRequest', limitMessages[err.code] ?? `Upload refused: ${err.message}.`));
      }
      reject(badRequest('Video.InvalidRequest', 'The request is not a readable multipart/form-data body.'));
    }),
  );
  const fields = { ...(req.body as Record<string, unknown>) };
  const imageUrl = fields['input_reference[image_url]'];
  delete fields['input_reference[image_url]'];
  delete fields['input_reference[file_id]'];
  if (typeof imageUrl === 'string') fields.input_reference = { image_url: imageUrl };
  if (req.file) {
    fields.input_reference = `data:${req.file.mimetype};base64,${req.file.buffer.toString('base64')}`;
  }
  if (typeof fields.content === 'string') {
    try {
      fields.content = JSON.parse(fields.content);
    } catch {
      throw badRequest('Video.InvalidRequest', 'content must be a JSON array.');
    }
  }
  return fields;
}
