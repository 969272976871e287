// GET …/skill/{skillId}/versions/{versionId}/files/{path}: one file of a version's bundle as text, so its reviewers
// read what they approve without downloading the zip. Declared once, mounted for the owning publisher
// (/api/v1/publisher/skill) and for moderators (/api/v1/moderation/skill).
import type { Request } from 'express';
import { z } from 'zod';
import { catalogErrors } from '../../../shared/catalog/catalog-errors.js';
import { readSkillBundleFile } from '../../../shared/catalog/skill-bundle-files.js';
import { notFound } from '../../../shared/errors/app-error.js';
import { MAX_SHOWN_FILE_BYTES } from '../../../shared/skills/bundle-file-text.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { principalOf } from '../../middleware/auth.js';
import type { Before, Route } from '../route.js';

export const bundleFileText = z.object({
  path: z.string().meta({ description: 'Relative to the skill root, as `bundleFiles` names it.' }),
  size: z.number().int().nonnegative().meta({ description: 'The whole file, in bytes.' }),
  binary: z.boolean().meta({ description: 'Not text (a NUL byte and bytes that are not UTF-8): no `text`.' }),
  text: z
    .string()
    .optional()
    .meta({ description: `The file as UTF-8, at most its first ${MAX_SHOWN_FILE_BYTES} bytes.` }),
  truncated: z.boolean().meta({ description: '`text` is the start of a larger file.' }),
});

/** The `*path` segments, as Express decoded them, joined again. */
const filePath = (req: Request) => ([] as string[]).concat(req.params.path ?? []).join('/');

/** `under`: what the area's prefix lacks of `…/skill` (the moderation area's prefix ends before the type). */
export function bundleFileRoute(options: {
  before: Before;
  reader: 'owner' | 'moderator';
  under: '' | '/skill';
}): Route {
  return {
    method: 'get',
    path: `${options.under}/:skillId/versions/:versionId/files/*path`,
    summary:
      options.reader === 'owner'
        ? "Read one file of an own skill version's bundle"
        : "Read one file of a skill version's bundle under review",
    access: 'bearer',
    dailyQuota: 'counted',
    params: {
      skillId: uuidParam({ notFound: () => catalogErrors.itemNotFound('skill') }),
      versionId: uuidParam({ notFound: () => notFound('Version.NotFound', 'No such version of this skill.') }),
    },
    notFound: 'Skill.FileNotFound: the version has no bundle, or the bundle no such file the inspection accepts.',
    busy: "Skill.ReadBusy: this API process is reading as many bundles' files as it may at once.",
    response: bundleFileText,
    before: options.before,
    handler: (ctx) => async (req, res) => {
      const file = await readSkillBundleFile(ctx, {
        skillId: pathParam(req, 'skillId'),
        versionId: pathParam(req, 'versionId'),
        path: filePath(req),
        ...(options.reader === 'owner' ? { ownerAccountId: principalOf(res).accountId } : {}),
      });
      res.set('cache-control', 'private, no-store').json(file);
    },
  };
}
