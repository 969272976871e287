// `/api/organization/**`: invite links first (they need no current organization), then everything that acts on
// the caller's current organization (`X-Organization-Id`, else their only one).
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { authenticate } from '../../middleware/auth.js';
import { currentOrganization } from '../../middleware/organization-access.js';
import { inviteTokenRoutes } from './invite-tokens.routes.js';
import { inviteRoutes } from './invites.routes.js';
import { memberRoutes } from './members.routes.js';

export function organizationRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use('/invites', inviteRoutes(ctx));
  router.use(authenticate(ctx), currentOrganization(ctx));
  router.use(memberRoutes(ctx));
  router.use(inviteTokenRoutes(ctx));
  return router;
}
