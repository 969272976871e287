// POST /api/v1/publisher/skill/{skillId}/versions/{versionId}/package: one multipart part `file` holding the .zip,
// streamed straight to object storage (busboy; nothing buffered whole, nothing written to a temp folder).
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { type Request, Router } from 'express';
import { uploadSkillBundle } from '../../../shared/catalog/skill-bundle-upload.js';
import type { AppContext } from '../../../shared/context.js';
import { badRequest } from '../../../shared/errors/app-error.js';
import { SKILL_BUNDLE_LIMITS } from '../../../shared/skills/bundle-limits.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';

/** Resolves with the stream of the `file` part; other parts are drained and ignored. */
function filePart(req: Request): Promise<{ stream: Readable; done: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: 1, fileSize: SKILL_BUNDLE_LIMITS.maxCompressedBytes + 1, fields: 10, parts: 12 },
      });
    } catch {
      reject(badRequest('Skill.InvalidBundle', 'Send the bundle as multipart/form-data with a part named "file".'));
      return;
    }
    let found = false;
    const done = new Promise<void>((ok) => parser.once('close', ok));
    parser.on('file', (name, stream) => {
      if (name !== 'file' || found) {
        stream.resume();
        return;
      }
      found = true;
      resolve({ stream, done });
    });
    parser.once('close', () => {
      if (!found) reject(badRequest('Skill.InvalidBundle', 'The request has no part named "file".'));
    });
    parser.once('error', () => reject(badRequest('Skill.InvalidBundle', 'The multipart body is malformed.')));
    req.pipe(parser);
  });
}

export function skillPackageRoutes(ctx: AppContext): Router {
  const router = Router();
  router.post(
    '/:skillId/versions/:versionId/package',
    authenticate(ctx),
    requireRole('Publisher'),
    async (req, res) => {
      const { stream } = await filePart(req);
      const result = await uploadSkillBundle(
        ctx,
        principalOf(res).accountId,
        { skillId: String(req.params.skillId), versionId: String(req.params.versionId) },
        stream,
      );
      res.json(result);
    },
  );
  return router;
}
