// Multipart bodies of POST /v1/videos (as the openai SDK sends them): fields, and `input_reference` as an image
// file that becomes a data URL; `input_reference[image_url]` as a field. Read as it arrives, under the same 48 MiB
// as the JSON form: what one request holds is bounded by that (docs/video.md, "Multipart bounds").
import type { Request } from 'express';
import { badRequest } from '../../../shared/errors/app-error.js';
import { MAX_IMAGE_BYTES } from '../../../shared/video/video-request.js';
import { parseJsonText } from '../../http/json-body.js';
import { fileBuffer, type MultipartLimits, type MultipartProblem, readMultipart } from '../../http/multipart-body.js';

export { isMultipart } from '../../http/multipart-body.js';

const MiB = 1024 * 1024;

export const VIDEO_MULTIPART: MultipartLimits = {
  bodyBytes: 48 * MiB,
  fileBytes: MAX_IMAGE_BYTES,
  // A 30 MB image as a data URL field is ~40 MB of base64; `content` may carry several smaller ones.
  fieldBytes: 48 * MiB,
  fields: 30,
  files: 1,
  parts: 31,
};

const messages: Record<MultipartProblem, string> = {
  'not-multipart': 'The request is not a readable multipart/form-data body.',
  malformed: 'The request is not a readable multipart/form-data body.',
  'body-too-large': 'The multipart body is larger than 48 MiB.',
  'file-too-large': 'input_reference: the image is larger than 30 MB.',
  'field-too-large': 'A field is larger than 48 MiB.',
  'too-many-fields': 'The request has more than 30 fields.',
  'too-many-files': 'Only one input_reference file is accepted.',
  'too-many-parts': 'The request has more than 31 parts.',
};
const invalid = (message: string) => badRequest('Video.InvalidRequest', message);

/** Reads the multipart body into the same shape as the JSON form. */
export async function readMultipartVideoBody(req: Request): Promise<Record<string, unknown>> {
  const { fields: text, files } = await readMultipart(req, {
    limits: VIDEO_MULTIPART,
    refuse: (problem) => invalid(messages[problem]),
    onFile: async ({ field, stream, mimeType }) => {
      if (field !== 'input_reference') {
        stream.resume();
        throw invalid('Only the input_reference field may carry a file.');
      }
      return { mimeType, bytes: await fileBuffer(stream) };
    },
  });
  const fields: Record<string, unknown> = { ...text };
  const imageUrl = fields['input_reference[image_url]'];
  delete fields['input_reference[image_url]'];
  delete fields['input_reference[file_id]'];
  if (typeof imageUrl === 'string') fields.input_reference = { image_url: imageUrl };
  const [file] = files;
  if (file) fields.input_reference = `data:${file.mimeType};base64,${file.bytes.toString('base64')}`;
  if (typeof fields.content === 'string') {
    fields.content = parseJsonText(fields.content, () => invalid('content must be a JSON array.'));
  }
  return fields;
}
