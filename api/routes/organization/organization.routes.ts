// `/api/organization/**`: invite links (they need no current organization), then everything that acts on the
// caller's current organization (`X-Organization-Id`, else their only one). The wallet is its own area.

import { inCurrentOrganization } from '../../middleware/organization-access.js';
import { organizationAuditLogRoute } from '../audit-log/audit-log.routes.js';
import type { Area } from '../route.js';
import { bulkInviteRoutes } from './bulk-invite.routes.js';
import { inviteTokenRoutes } from './invite-tokens.routes.js';
import { inviteRoutes } from './invites.routes.js';
import { memberRoutes } from './members.routes.js';

export const organizationArea: Area = {
  tag: 'Organization',
  routes: [
    ...inviteRoutes,
    ...memberRoutes,
    ...inviteTokenRoutes,
    ...bulkInviteRoutes,
    { ...organizationAuditLogRoute, before: inCurrentOrganization },
  ],
};
