// `/api/organization/**`: invite links first (they need no current organization), then everything that acts on
// the caller's current organization (`X-Organization-Id`, else their only one).
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { authenticate } from '../../middleware/auth.js';
import { currentOrganization } from '../../middleware/organization-access.js';
import { walletRoutes } from '../wallet/wallet.routes.js';
import { walletRefundRoutes } from '../wallet/wallet-refund.routes.js';
import { inviteTokenRoutes } from './invite-tokens.routes.js';
import { inviteRoutes } from './invites.routes.js';
import { memberRoutes } from './members.routes.js';

/** Paths acting on the current organization; an area adding routes here adds its prefix. */
export const organizationScopedPaths = ['/members', '/invite-tokens', '/bulk-invite', '/wallet'];

export function organizationRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use('/invites', inviteRoutes(ctx));
  // Refunds are for platform Admins, who need not be members of the organization.
  router.use(walletRefundRoutes(ctx));
  // Only the paths this area serves authenticate, so an unknown path stays a 404 for everyone.
  router.use(organizationScopedPaths, authenticate(ctx), currentOrganization(ctx));
  router.use(memberRoutes(ctx));
  router.use(inviteTokenRoutes(ctx));
  router.use(walletRoutes(ctx));
  return router;
}
