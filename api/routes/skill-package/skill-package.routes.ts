// POST /api/v1/publisher/skill/{skillId}/versions/{versionId}/package: one multipart part `file` holding the .zip,
// streamed straight to object storage as it arrives (nothing buffered whole; the local driver's temp file is removed
// if the upload fails or the client goes away).

import { catalogErrors } from '../../../shared/catalog/catalog-errors.js';
import { type UploadedBundle, uploadSkillBundle } from '../../../shared/catalog/skill-bundle-upload.js';
import { badRequest, notFound } from '../../../shared/errors/app-error.js';
import { SKILL_BUNDLE_LIMITS } from '../../../shared/skills/bundle-limits.js';
import { type MultipartLimits, type MultipartProblem, readMultipart } from '../../http/multipart-body.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { authenticate, principalOf, requireRole } from '../../middleware/auth.js';
import { uploadedBundle } from '../catalog-workflow.responses.js';
import type { Area, Before } from '../route.js';
import { bundleFileRoute } from './bundle-file.route.js';

/** The zip (the storage write stops it past 10 MB) and a few small fields, which are ignored. */
export const SKILL_PACKAGE_MULTIPART: MultipartLimits = {
  bodyBytes: SKILL_BUNDLE_LIMITS.maxCompressedBytes + 64 * 1024,
  fileBytes: SKILL_BUNDLE_LIMITS.maxCompressedBytes + 1,
  fieldBytes: 1024,
  fields: 10,
  files: 1,
  parts: 11,
};

const problems: Record<MultipartProblem, string> = {
  'not-multipart': 'Send the bundle as multipart/form-data with a part named "file".',
  malformed: 'The multipart body is malformed.',
  'body-too-large': `The upload is larger than ${SKILL_BUNDLE_LIMITS.maxCompressedBytes / 1024 / 1024} MB.`,
  'file-too-large': `The bundle is larger than ${SKILL_BUNDLE_LIMITS.maxCompressedBytes / 1024 / 1024} MB.`,
  'field-too-large': 'A form field is larger than 1 KiB.',
  'too-many-fields': 'The upload has more than 10 form fields.',
  'too-many-files': 'Send exactly one file, in the part named "file".',
  'too-many-parts': 'The upload has too many parts.',
};

const publisherOnly: Before = (ctx, route) => [authenticate(ctx, route), requireRole('Publisher')];

export const skillPackageArea: Area = {
  tag: 'Publishing',
  routes: [
    {
      method: 'post',
      path: '/:skillId/versions/:versionId/package',
      summary: 'Upload the skill bundle (zip) of a version',
      access: 'bearer',
      dailyQuota: 'counted',
      multipartFiles: ['file'],
      response: uploadedBundle,
      // The version first, as the upload itself checks them.
      params: {
        versionId: uuidParam({ notFound: () => notFound('Version.NotFound', 'No such version of this skill.') }),
        skillId: uuidParam({ notFound: () => catalogErrors.itemNotFound('skill') }),
      },
      before: publisherOnly,
      handler: (ctx) => async (req, res) => {
        const ref = { skillId: pathParam(req, 'skillId'), versionId: pathParam(req, 'versionId') };
        const { files } = await readMultipart<UploadedBundle | null>(req, {
          limits: SKILL_PACKAGE_MULTIPART,
          refuse: (problem) => badRequest('Skill.InvalidBundle', problems[problem]),
          onFile: ({ field, stream }) => {
            if (field !== 'file') {
              stream.resume();
              return null;
            }
            return uploadSkillBundle(ctx, principalOf(res).accountId, ref, stream);
          },
        });
        const uploaded = files.find((f) => f !== null);
        if (!uploaded) throw badRequest('Skill.InvalidBundle', 'The request has no part named "file".');
        res.json(uploaded);
      },
    },
    bundleFileRoute({ before: publisherOnly, reader: 'owner', under: '' }),
  ],
};
