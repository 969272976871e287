// Reads a multipart/form-data body as it arrives (busboy), under limits on the whole body, each file, each field,
// and the number of fields, files and parts. Files are handed to the route as streams; nothing is held here
// beyond the text fields (within `bodyBytes`). A client that goes away mid-body, a limit passed or a malformed
// body ends the read at once: every open file stream is destroyed with the error, so whatever consumes it (a
// storage write, a buffer) lets go of its temp file, handle and memory, and the request stops being read.
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { Request } from 'express';
import { AppError } from '../../shared/errors/app-error.js';

export type MultipartLimits = {
  /** The whole body as sent (boundaries and part headers included): the bound on what one request can hold. */
  bodyBytes: number;
  /** One file part. */
  fileBytes: number;
  /** One text field's value. */
  fieldBytes: number;
  fields: number;
  files: number;
  /** Fields and files together. */
  parts: number;
};

export type MultipartProblem =
  | 'not-multipart'
  | 'malformed'
  | 'body-too-large'
  | 'file-too-large'
  | 'field-too-large'
  | 'too-many-fields'
  | 'too-many-files'
  | 'too-many-parts';

export type FilePart = { field: string; stream: Readable; filename: string; mimeType: string };

export type MultipartOptions<T> = {
  limits: MultipartLimits;
  /** Consumes one file part (or skips it with `stream.resume()`); a rejection ends the read with that error. */
  onFile(part: FilePart): Promise<T> | T;
  /** The route family's error for a body that breaks a rule. */
  refuse(problem: MultipartProblem): Error;
};

/** The client went away before the body was complete: nothing is answered (no one is listening). */
export const requestAborted = () =>
  new AppError('Request.Aborted', 400, 'The request body ended before it was complete.');

export const isMultipart = (req: Request) => /^multipart\/form-data\b/i.test(req.header('content-type') ?? '');

export function readMultipart<T>(
  req: Request,
  options: MultipartOptions<T>,
): Promise<{ fields: Record<string, string>; files: T[] }> {
  const { limits, refuse } = options;
  return new Promise((resolve, reject) => {
    const declared = Number(req.header('content-length') ?? Number.NaN);
    if (declared > limits.bodyBytes) return reject(refuse('body-too-large'));
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fileSize: limits.fileBytes,
          fieldSize: limits.fieldBytes,
          fields: limits.fields,
          files: limits.files,
          parts: limits.parts,
          fieldNameSize: 200,
          headerPairs: 64,
        },
      });
    } catch {
      return reject(refuse('not-multipart'));
    }

    const fields: Record<string, string> = {};
    const consumers: Promise<T>[] = [];
    const openFiles = new Set<Readable>();
    let bodyBytes = 0;
    let settled = false;

    const detach = () => {
      req.off('data', countBytes);
      req.off('close', onClose);
      req.off('error', onRequestError);
      req.unpipe(parser);
    };
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      detach();
      for (const stream of openFiles) stream.destroy(err);
      openFiles.clear();
      // Busboy may still report the cut; the request is already settled. Destroyed after the current event (a limit
      // event is emitted from inside busboy's own write, which goes on using its state).
      parser.on('error', () => undefined);
      setImmediate(() => parser.destroy());
      reject(err);
    };
    const countBytes = (chunk: Buffer) => {
      bodyBytes += chunk.length;
      if (bodyBytes > limits.bodyBytes) fail(refuse('body-too-large'));
    };
    const onClose = () => {
      if (!req.complete) fail(requestAborted());
    };
    const onRequestError = () => fail(requestAborted());

    parser.on('file', (field, stream, info) => {
      if (settled) return void stream.resume();
      openFiles.add(stream);
      // The error a cut destroys the stream with is the request's; a consumer that never started must not see it thrown.
      stream.on('error', () => undefined);
      stream.once('limit', () => fail(refuse('file-too-large')));
      stream.once('close', () => openFiles.delete(stream));
      stream.once('end', () => openFiles.delete(stream));
      const consumer = Promise.resolve()
        .then(() => options.onFile({ field, stream, filename: info.filename ?? '', mimeType: info.mimeType }))
        .catch((err: unknown) => {
          fail(err instanceof Error ? err : new Error(String(err)));
          throw err;
        });
      consumer.catch(() => undefined);
      consumers.push(consumer);
    });
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(refuse('field-too-large'));
      if (info.nameTruncated) return fail(refuse('malformed'));
      fields[name] = value;
    });
    parser.once('fieldsLimit', () => fail(refuse('too-many-fields')));
    parser.once('filesLimit', () => fail(refuse('too-many-files')));
    parser.once('partsLimit', () => fail(refuse('too-many-parts')));
    parser.once('error', () => fail(refuse('malformed')));
    parser.once('close', () => {
      if (settled) return;
      Promise.all(consumers).then(
        (files) => {
          if (settled) return;
          settled = true;
          detach();
          resolve({ fields, files });
        },
        (err: unknown) => fail(err instanceof Error ? err : new Error(String(err))),
      );
    });

    req.on('data', countBytes);
    req.once('close', onClose);
    req.once('error', onRequestError);
    req.pipe(parser);
  });
}

/** A file part read into memory; the reader's `fileBytes` limit bounds it. */
export async function fileBuffer(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
