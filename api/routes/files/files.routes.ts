// GET /files/{key}: objects of the local storage driver (skill bundles, rehosted videos), immutable and cacheable.
// With the s3 driver the public URLs point at the bucket or CDN instead and this route is not mounted.
// A HEAD opens nothing (Node drops a HEAD's body, so piping one read the whole object for headers alone), and a
// client that leaves mid-download ends the read and closes the file at once (security review #138).
import { pipeline } from 'node:stream/promises';
import { notFound } from '../../../shared/errors/app-error.js';
import { objectKeyProblem } from '../../../shared/storage/index.js';
import type { Area } from '../route.js';

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
      handler: (ctx) => async (req, res) => {
        const key = (req.params as { key: string[] }).key.join('/');
        if (objectKeyProblem(key)) throw notFound('File.NotFound', 'No such file.');
        const object = await ctx.storage.stat(key);
        if (!object) throw notFound('File.NotFound', 'No such file.');
        const etag = `"${object.sha256}"`;
        res.setHeader('etag', etag);
        res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        if (req.header('if-none-match') === etag) {
          res.status(304).end();
          return;
        }
        res.setHeader('content-type', object.contentType);
        res.setHeader('content-length', String(object.sizeBytes));
        if (req.method === 'HEAD') {
          res.end();
          return;
        }
        // pipeline destroys both on either's end: a client gone early closes the file, a failed read cuts the
        // connection (the headers are sent, so a cut is the only honest signal left).
        await pipeline(await ctx.storage.get(key), res).catch(() => undefined);
      },
    },
  ],
};
