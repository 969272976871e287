// Invite links: what an invite is for (public) and registration by invite, with or without a signed-in caller.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { acceptInvite, previewInvite } from '../../../shared/organizations/invite-acceptance.js';
import { sendData } from '../../http/envelope.js';
import { body } from '../../http/validate.js';
import { authenticate, principalOf } from '../../middleware/auth.js';
import { presentAcceptedInvite, presentInvitePreview } from './organization.presenters.js';
import { acceptInviteBody } from './organization.schemas.js';

export function inviteRoutes(ctx: AppContext): Router {
  const router = Router();
  const signedIn = authenticate(ctx);

  router.get('/:token', async (req, res) => {
    sendData(res, presentInvitePreview(await previewInvite(ctx, req.params.token)));
  });

  router.post(
    '/:token/accept',
    (req, res, next) => (req.header('authorization') ? signedIn(req, res, next) : next()),
    async (req, res) => {
      const invitee = res.locals.principal
        ? { accountId: principalOf(res).accountId }
        : body(req, acceptInviteBody, 'Invite.Invalid');
      sendData(res, presentAcceptedInvite(await acceptInvite(ctx, req.params.token, invitee)), 201);
    },
  );

  return router;
}
