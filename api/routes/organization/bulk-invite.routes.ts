// Bulk invite of the current organization (Admin only): a CSV upload of up to 500 rows invites each address, and
// its report can be read again later, as JSON or as a CSV file.
import type { Request, Response } from 'express';
import { AppError, badRequest } from '../../../shared/errors/app-error.js';
import {
  BULK_INVITES_PER_HOUR,
  type BulkImportResult,
  bulkImportNotFound,
  bulkInvite,
  getBulkImport,
} from '../../../shared/organizations/bulk-invite.js';
import { sendData } from '../../http/envelope.js';
import {
  fileBuffer,
  isMultipart,
  type MultipartLimits,
  type MultipartProblem,
  readMultipart,
} from '../../http/multipart-body.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { principalOf } from '../../middleware/auth.js';
import { organizationOf } from '../../middleware/organization-access.js';
import { defineRoutes } from '../route.js';
import { inviteAdmin } from './invite-admin.js';
import { bulkImportCsv, presentBulkImport } from './organization.presenters.js';
import { bulkImport } from './organization.responses.js';

/** Bulk-invite files: 500 rows fit comfortably in 1 MiB. */
export const bulkInviteMaxBytes = 1024 * 1024;

export const BULK_INVITE_MULTIPART: MultipartLimits = {
  bodyBytes: bulkInviteMaxBytes + 64 * 1024,
  fileBytes: bulkInviteMaxBytes,
  fieldBytes: 1024,
  fields: 10,
  files: 1,
  parts: 11,
};

const tooLarge = () =>
  new AppError('BulkInvite.FileTooLarge', 413, `The file is larger than ${bulkInviteMaxBytes} bytes.`);
const refusals: Record<MultipartProblem, () => AppError> = {
  'not-multipart': () => badRequest('BulkInvite.FileRequired', 'Send the CSV as the multipart/form-data field "file".'),
  malformed: () => badRequest('BulkInvite.InvalidFile', 'The request is not a readable multipart/form-data upload.'),
  'body-too-large': tooLarge,
  'file-too-large': tooLarge,
  'field-too-large': () => badRequest('BulkInvite.InvalidFile', 'A form field is larger than 1 KiB.'),
  'too-many-fields': () => badRequest('BulkInvite.InvalidFile', 'The upload has more than 10 form fields.'),
  'too-many-files': () => badRequest('BulkInvite.InvalidFile', 'Send one file, in the field "file".'),
  'too-many-parts': () => badRequest('BulkInvite.InvalidFile', 'The upload has too many parts.'),
};

/** The CSV of the `file` part, in memory (at most 1 MiB); null when the upload has none. */
async function receiveFile(req: Request): Promise<Buffer | null> {
  if (!isMultipart(req)) return null;
  const { files } = await readMultipart(req, {
    limits: BULK_INVITE_MULTIPART,
    refuse: (problem) => refusals[problem](),
    onFile: async ({ field, stream }) => {
      if (field !== 'file') {
        stream.resume();
        return null;
      }
      return fileBuffer(stream);
    },
  });
  return files.find((f) => f !== null) ?? null;
}

/** The report in the envelope, or as a CSV file when the client asks for `text/csv`. */
function sendBulkImport(req: Request, res: Response, result: BulkImportResult, status: number): void {
  if (req.accepts(['application/json', 'text/csv']) !== 'text/csv') {
    sendData(res, presentBulkImport(result), status);
    return;
  }
  res
    .status(status)
    .type('text/csv; charset=utf-8')
    .setHeader('content-disposition', `attachment; filename="bulk-invite-${result.id}.csv"`)
    .send(bulkImportCsv(result));
}

export const bulkInviteRoutes = defineRoutes([
  {
    method: 'post',
    path: '/bulk-invite',
    audited: true,
    summary: 'Invite members from a CSV file (the report as CSV with Accept: text/csv, formula-escaped)',
    ...inviteAdmin,
    multipartFiles: ['file'],
    status: 201,
    rateLimited: `BulkInvite.TooMany: this account stored ${BULK_INVITES_PER_HOUR} bulk invites in the last hour.`,
    content: 'json-or-csv',
    response: bulkImport,
    handler: (ctx) => async (req, res) => {
      const file = await receiveFile(req);
      if (!file) throw badRequest('BulkInvite.FileRequired', 'Send the CSV as the multipart/form-data field "file".');
      const { organizationId } = organizationOf(res);
      const actor = auditActorOf(req, res);
      const result = await bulkInvite(ctx, organizationId, principalOf(res).accountId, file, actor);
      sendBulkImport(req, res, result, 201);
    },
  },
  {
    method: 'get',
    path: '/bulk-invite/:id',
    summary: 'Result of a bulk invite (as CSV with Accept: text/csv)',
    ...inviteAdmin,
    params: { id: uuidParam({ notFound: bulkImportNotFound }) },
    content: 'json-or-csv',
    response: bulkImport,
    handler: (ctx) => async (req, res) => {
      const { organizationId } = organizationOf(res);
      sendBulkImport(req, res, await getBulkImport(ctx.db, organizationId, pathParam(req, 'id')), 200);
    },
  },
]);
