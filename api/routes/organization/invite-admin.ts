// What the invite routes (invite tokens, bulk invite) declare about their caller: an Admin of the current
// organization.
import { organizationAdminsOnly } from '../../middleware/organization-access.js';

export const inviteAdmin = {
  access: 'bearer',
  dailyQuota: 'shown',
  organization: true,
  before: organizationAdminsOnly('manage invites'),
} as const;
