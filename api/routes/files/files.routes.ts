// GET /files/{key}: objects of the local storage driver (skill bundles, rehosted videos), immutable and cacheable.
// With the s3 driver the public URLs point at the bucket or CDN instead and this route is not mounted.
// A HEAD opens nothing (Node drops a HEAD's body, so piping one read the whole object for headers alone), and a
// client that leaves mid-download ends the read and closes the file at once (security review #138).
// One byte range (`Range: bytes=a-b`, `a-`, `-n`, with `If-Range`) answers 206 with only those bytes read from disk, so
// Safari plays a video and a seek fetches from where it lands; several ranges answer the whole object (docs/video.md).
import { pipeline } from 'node:stream/promises';
import { AppError, notFound } from '../../../shared/errors/app-error.js';
import { objectKeyProblem } from '../../../shared/storage/index.js';
import type { Area } from '../route.js';
import { requestedSlice } from './byte-range.js';

const immutable = 'public, max-age=31536000, immutable';

/** 416 with the object's length, so the client can ask again for bytes that exist; not cached (no cache policy). */
const rangeNotSatisfiable = (sizeBytes: number) =>
  new AppError('File.RangeNotSatisfiable', 416, `The range asks for no byte of this ${sizeBytes}-byte file.`, {
    headers: { 'content-range': `bytes */${sizeBytes}` },
  });

export const filesArea: Area = {
  tag: 'Files',
  enabled: (ctx) => ctx.config.STORAGE_DRIVER === 'local',
  routes: [
    {
      method: 'get',
      path: '/files/*key',
      summary: 'Download a stored object (local storage driver only)',
      access: 'public',
      content: 'binary',
      etag: "The object's SHA-256; the object never changes under its key (Cache-Control: immutable, a year).",
      notModified: 'If-None-Match names the current ETag (answered before the file is opened).',
      byteRanges: 'Several ranges in one header, or a Range with a stale If-Range, answer the whole file (200).',
      handler: (ctx) => async (req, res) => {
        const key = (req.params as { key: string[] }).key.join('/');
        if (objectKeyProblem(key)) throw notFound('File.NotFound', 'No such file.');
        const object = await ctx.storage.stat(key);
        if (!object) throw notFound('File.NotFound', 'No such file.');
        const etag = `"${object.sha256}"`;
        res.setHeader('etag', etag);
        res.setHeader('accept-ranges', 'bytes');
        if (req.header('if-none-match') === etag) {
          res.setHeader('cache-control', immutable);
          res.status(304).end();
          return;
        }
        const slice = requestedSlice(
          { range: req.header('range'), ifRange: req.header('if-range') },
          object.sizeBytes,
          etag,
        );
        if (slice === 'unsatisfiable') throw rangeNotSatisfiable(object.sizeBytes);
        res.setHeader('cache-control', immutable);
        res.setHeader('content-type', object.contentType);
        if (slice === 'whole') {
          res.setHeader('content-length', String(object.sizeBytes));
        } else {
          res.status(206);
          res.setHeader('content-range', `bytes ${slice.start}-${slice.end}/${object.sizeBytes}`);
          res.setHeader('content-length', String(slice.end - slice.start + 1));
        }
        if (req.method === 'HEAD') {
          res.end();
          return;
        }
        // pipeline destroys both on either's end: a client gone early closes the file, a failed read cuts the
        // connection (the headers are sent, so a cut is the only honest signal left).
        const body = await ctx.storage.get(key, slice === 'whole' ? undefined : slice);
        await pipeline(body, res).catch(() => undefined);
      },
    },
  ],
};
