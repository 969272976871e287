// Serves a finished task's video (the bundled sample MP4) at /files/videos/{taskId}.mp4, the URL Seedance tasks report.
import { Router } from 'express';
import type { VideoTaskStore } from './video-tasks.js';

export const SAMPLE_MP4_URL = new URL('../assets/sample.mp4', import.meta.url);

export function videoFilesRouter(store: VideoTaskStore, mp4: Buffer): Router {
  const router = Router();
  router.get('/files/videos/:file', (req, res) => {
    const id = String(req.params.file).replace(/\.mp4$/, '');
    const task = store.get('seedance', id) ?? store.get('openai', id);
    if (!task || store.phase(task).status !== 'succeeded') {
      res.status(404).type('text/plain').send('Not Found');
      return;
    }
    res.status(200).set({
      'content-type': 'video/mp4',
      'content-length': String(mp4.length),
      'cache-control': 'private, max-age=86400',
    });
    if (req.method === 'HEAD') res.end();
    else res.end(mp4);
  });
  return router;
}
