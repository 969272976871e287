// Invite tokens of the current organization (Admin only): create (token shown once), list, revoke; and bulk invite.
import { type RequestHandler, Router } from 'express';
import multer, { MulterError } from 'multer';
import type { AppContext } from '../../../shared/context.js';
import { AppError, badRequest } from '../../../shared/errors/app-error.js';
import { requireOrganizationAdmin } from '../../../shared/organizations/access.js';
import { bulkInvite, getBulkImport } from '../../../shared/organizations/bulk-invite.js';
import { createInviteToken, listInviteTokens, revokeInviteToken } from '../../../shared/organizations/invite-tokens.js';
import { sendData } from '../../http/envelope.js';
import { body } from '../../http/validate.js';
import { principalOf } from '../../middleware/auth.js';
import { organizationOf } from '../../middleware/organization-access.js';
import { presentBulkImport, presentInviteToken, presentIssuedInviteToken } from './organization.presenters.js';
import { inviteTokenBody } from './organization.schemas.js';

/** Bulk-invite files: 500 rows fit comfortably in 1 MiB. */
export const bulkInviteMaxBytes = 1024 * 1024;
const defaultInviteLifetimeMs = 7 * 24 * 3_600_000;

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: bulkInviteMaxBytes, files: 1, fields: 10 },
});

const receiveFile = (
  req: Parameters<ReturnType<typeof upload.single>>[0],
  res: Parameters<ReturnType<typeof upload.single>>[1],
) =>
  new Promise<void>((resolve, reject) =>
    upload.single('file')(req, res, (err: unknown) => {
      if (!err) return resolve();
      if (err instanceof MulterError && err.code === 'LIMIT_FILE_SIZE') {
        return reject(
          new AppError('BulkInvite.FileTooLarge', 413, `The file is larger than ${bulkInviteMaxBytes} bytes.`),
        );
      }
      if (err instanceof MulterError)
        return reject(badRequest('BulkInvite.InvalidFile', `Upload refused: ${err.message}.`));
      reject(badRequest('BulkInvite.InvalidFile', 'The request is not a readable multipart/form-data upload.'));
    }),
  );

export function inviteTokenRoutes(ctx: AppContext): Router {
  const router = Router();
  const adminOnly: RequestHandler = (_req, res, next) => {
    requireOrganizationAdmin(organizationOf(res), 'manage invites');
    next();
  };

  router.post('/invite-tokens', adminOnly, async (req, res) => {
    const input = body(req, inviteTokenBody, 'Invite.Invalid');
    const issued = await createInviteToken(
      ctx.db,
      ctx.config,
      organizationOf(res).organizationId,
      principalOf(res).accountId,
      {
        ...input,
        expiresAt: input.expiresAt ?? new Date(Date.now() + defaultInviteLifetimeMs),
      },
    );
    sendData(res, presentIssuedInviteToken(issued), 201);
  });

  router.get('/invite-tokens', adminOnly, async (_req, res) => {
    const tokens = await listInviteTokens(ctx.db, organizationOf(res).organizationId);
    sendData(res, tokens.map(presentInviteToken), 200, { total: tokens.length });
  });

  router.delete('/invite-tokens/:id', adminOnly, async (req, res) => {
    sendData(
      res,
      presentInviteToken(await revokeInviteToken(ctx.db, organizationOf(res).organizationId, String(req.params.id))),
    );
  });

  router.post('/bulk-invite', adminOnly, async (req, res) => {
    await receiveFile(req, res);
    if (!req.file) throw badRequest('BulkInvite.FileRequired', 'Send the CSV as the multipart/form-data field "file".');
    const result = await bulkInvite(
      ctx,
      organizationOf(res).organizationId,
      principalOf(res).accountId,
      req.file.buffer,
    );
    sendData(res, presentBulkImport(result), 201);
  });

  router.get('/bulk-invite/:id', adminOnly, async (req, res) => {
    const { organizationId } = organizationOf(res);
    sendData(res, presentBulkImport(await getBulkImport(ctx.db, organizationId, String(req.params.id))));
  });

  return router;
}
