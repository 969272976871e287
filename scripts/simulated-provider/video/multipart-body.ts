// Reads a multipart/form-data body (as the openai SDK sends it) into text fields and file descriptions,
// using undici's standard FormData parser.
import { Response } from 'undici';

export type UploadedFile = { filename: string; contentType: string; size: number };
export type MultipartBody = { fields: Record<string, string>; files: Record<string, UploadedFile> };

export async function parseMultipart(raw: Buffer, contentType: string): Promise<MultipartBody> {
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  const body: MultipartBody = { fields: {}, files: {} };
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') body.fields[name] = value;
    else body.files[name] = { filename: value.name, contentType: value.type, size: value.size };
  }
  return body;
}
