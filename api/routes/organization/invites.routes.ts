// Invite links: what an invite is for (public) and registration by invite, with or without a signed-in caller.
import { acceptInvite, previewInvite } from '../../../shared/organizations/invite-acceptance.js';
import { clientAddress } from '../../http/client-address.js';
import { sendData } from '../../http/envelope.js';
import { pathParam } from '../../http/path-params.js';
import { body } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { authenticate, hasCredential, principalOf } from '../../middleware/auth.js';
import { guessing, hashingBusy } from '../../openapi/limit-notes.js';
import { defineRoutes } from '../route.js';
import { presentAcceptedInvite, presentInvitePreview } from './organization.presenters.js';
import { acceptedInvite, invitePreview } from './organization.responses.js';
import { acceptInviteBody } from './organization.schemas.js';

// An invite token is not a UUID: the invite lookup answers 404 for any token it does not know.
export const inviteRoutes = defineRoutes([
  {
    method: 'get',
    path: '/invites/:token',
    summary: 'Preview an invite',
    access: 'public',
    response: invitePreview,
    notFound: 'Invite.NotFound: no invite has this token.',
    handler: (ctx) => async (req, res) => {
      sendData(res, presentInvitePreview(await previewInvite(ctx, pathParam(req, 'token'))));
    },
  },
  {
    method: 'post',
    path: '/invites/:token/accept',
    audited: true,
    summary: 'Accept an invite (signed in, or creating an account from the body)',
    access: 'optional-bearer',
    dailyQuota: 'shown',
    body: acceptInviteBody,
    status: 201,
    response: acceptedInvite,
    notFound: 'Invite.NotFound: no invite has this token.',
    conflicts:
      'Invite.AlreadyMember: the signed-in caller is already a member; Invite.AccountExists: an account with this ' +
      'e-mail exists and must sign in to accept.',
    gone: 'Invite.Expired: the invite has expired, was revoked or has been used up.',
    rateLimited: `${guessing} Auth.TooManySignups: accepting without signing in made ACCOUNT_SIGNUPS_PER_ADDRESS_PER_HOUR accounts from this address within the hour.`,
    busy: hashingBusy,
    before: (ctx, route) => {
      const signedIn = authenticate(ctx, route);
      return [(req, res, next) => (hasCredential(req, ctx.config) ? signedIn(req, res, next) : next())];
    },
    handler: (ctx) => async (req, res) => {
      const signedIn = res.locals.principal !== undefined;
      const invitee = signedIn
        ? { accountId: principalOf(res).accountId }
        : body(req, acceptInviteBody, 'Invite.Invalid');
      // A registration has no credential yet: the acceptance audits it as the invite link's.
      const caller = {
        address: clientAddress(req),
        credential: signedIn ? auditActorOf(req, res).credential : undefined,
        correlationId: (res.locals.correlationId as string | undefined) ?? null,
      };
      const accepted = await acceptInvite(ctx, pathParam(req, 'token'), invitee, caller);
      sendData(res, presentAcceptedInvite(accepted), 201);
    },
  },
]);
