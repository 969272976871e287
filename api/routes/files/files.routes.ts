// GET /files/{key}: objects of the local storage driver (skill bundles, rehosted videos), immutable and cacheable.
// With the s3 driver the public URLs point at the bucket or CDN instead and this route is not mounted.
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
        const body = await ctx.storage.get(key);
        body.on('error', () => res.destroy());
        body.pipe(res);
      },
    },
  ],
};
