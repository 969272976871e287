// Bounds what a compressed JSON body may inflate to against the bytes that carried it. The body parsers run before
// authentication, and a body limit alone let 97 bytes of brotli be read as 48 MiB of JSON and parsed (1.7 s of the
// main loop, +300 MB of memory) for a caller without any account. Past INFLATION_FLOOR_BYTES, the body inflated so
// far may be at most MAX_INFLATION_RATIO times the compressed bytes consumed so far (JSON text compresses 5–20
// times; 100 is the skill bundles' bound too); a body past it is refused with 413 as soon as it crosses the line.
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { Request, RequestHandler } from 'express';
import { AppError } from '../../shared/errors/app-error.js';

export const MAX_INFLATION_RATIO = 100;
export const INFLATION_FLOOR_BYTES = 64 * 1024;

const tooInflated = () =>
  new AppError(
    'Request.TooLarge',
    413,
    `The request body is too large once inflated: more than ${MAX_INFLATION_RATIO} times its compressed size. ` +
      'Send it uncompressed.',
  );

/** A zlib or brotli stream body-parser made: `bytesWritten` counts the compressed bytes it has consumed. */
type Decompressor = Writable & { bytesWritten: number };

const isDecompressor = (stream: unknown): stream is Decompressor =>
  stream instanceof zlib.Gunzip ||
  stream instanceof zlib.Inflate ||
  stream instanceof zlib.BrotliDecompress ||
  ('ZstdDecompress' in zlib && stream instanceof (zlib.ZstdDecompress as typeof zlib.Gunzip));

function watch(decompressor: Decompressor): void {
  let inflated = 0;
  // A second 'data' listener beside raw-body's: each sees every chunk as the stream makes it.
  decompressor.on('data', (chunk: Buffer) => {
    inflated += chunk.length;
    if (inflated > INFLATION_FLOOR_BYTES && inflated > MAX_INFLATION_RATIO * decompressor.bytesWritten) {
      decompressor.destroy(tooInflated());
    }
  });
}

/**
 * Goes right before a body-parser reader of `types`: body-parser pipes a compressed request into a decompression
 * stream it makes itself (`req.pipe(stream)`), so this request's `pipe` watches the stream it is handed, once.
 */
export function boundInflation(types: string[]): RequestHandler {
  return (req, _res, next) => {
    const encoding = req.headers['content-encoding']?.trim().toLowerCase();
    if (!encoding || encoding === 'identity' || !req.is(types)) return next();
    const request = req as Request & { pipe: Request['pipe'] };
    const pipe = request.pipe;
    request.pipe = function pipeWatched<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }) {
      request.pipe = pipe;
      if (isDecompressor(destination)) watch(destination);
      return pipe.call(this, destination, options) as T;
    };
    next();
  };
}
