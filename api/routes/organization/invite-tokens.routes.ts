// Invite tokens of the current organization (Admin only): create (the token is shown once), list, revoke.

import { z } from 'zod';
import {
  createInviteToken,
  inviteTokenNotFound,
  listInviteTokens,
  revokeInviteToken,
} from '../../../shared/organizations/invite-tokens.js';
import {
  INVITE_TOKENS_PER_ORGANIZATION_PER_DAY,
  limitedInviteIssue,
} from '../../../shared/organizations/organization-rates.js';
import { sendData } from '../../http/envelope.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { body } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { principalOf } from '../../middleware/auth.js';
import { organizationOf } from '../../middleware/organization-access.js';
import { totalField } from '../../openapi/response-parts.js';
import { defineRoutes } from '../route.js';
import { inviteAdmin } from './invite-admin.js';
import { presentInviteToken, presentIssuedInviteToken } from './organization.presenters.js';
import { inviteToken, issuedInviteToken } from './organization.responses.js';
import { inviteTokenBody } from './organization.schemas.js';

const defaultInviteLifetimeMs = 7 * 24 * 3_600_000;

export const inviteTokenRoutes = defineRoutes([
  {
    method: 'post',
    path: '/invite-tokens',
    audited: true,
    summary: 'Issue an invite token',
    ...inviteAdmin,
    body: inviteTokenBody,
    status: 201,
    rateLimited: `Invite.TooManyIssued: the organization issued ${INVITE_TOKENS_PER_ORGANIZATION_PER_DAY} invite tokens within the last 24 hours.`,
    response: issuedInviteToken,
    handler: (ctx) => async (req, res) => {
      const input = body(req, inviteTokenBody, 'Invite.Invalid');
      const { organizationId } = organizationOf(res);
      const issued = await limitedInviteIssue(ctx, organizationId, () =>
        createInviteToken(
          ctx.db,
          ctx.config,
          organizationId,
          principalOf(res).accountId,
          { ...input, expiresAt: input.expiresAt ?? new Date(Date.now() + defaultInviteLifetimeMs) },
          new Date(),
          auditActorOf(req, res),
        ),
      );
      sendData(res, presentIssuedInviteToken(issued), 201);
    },
  },
  {
    method: 'get',
    path: '/invite-tokens',
    summary: 'List invite tokens',
    ...inviteAdmin,
    response: z.array(inviteToken),
    envelopeFields: totalField,
    handler: (ctx) => async (_req, res) => {
      const tokens = await listInviteTokens(ctx.db, organizationOf(res).organizationId);
      sendData(res, tokens.map(presentInviteToken), 200, { total: tokens.length });
    },
  },
  {
    method: 'delete',
    path: '/invite-tokens/:id',
    audited: true,
    summary: 'Revoke an invite token',
    ...inviteAdmin,
    params: { id: uuidParam({ notFound: inviteTokenNotFound }) },
    response: inviteToken,
    handler: (ctx) => async (req, res) => {
      const { organizationId } = organizationOf(res);
      const revoked = await revokeInviteToken(ctx.db, organizationId, pathParam(req, 'id'), auditActorOf(req, res));
      sendData(res, presentInviteToken(revoked));
    },
  },
]);
