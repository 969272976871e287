// What leaves the process for the platform Admin's organization directory: money as decimal numbers.
import type { DirectoryOrganization } from '../../../shared/admin/organization-directory.js';
import { microsToNumber } from '../../../shared/wallet/money.js';
import { withoutNulls } from '../../http/json.js';

export const presentDirectoryOrganization = (o: DirectoryOrganization) =>
  withoutNulls({
    id: o.id,
    name: o.name,
    createdAt: o.createdAt,
    memberCount: o.memberCount,
    wallet:
      o.balance === null
        ? null
        : {
            balance: microsToNumber(o.balance),
            frozenAmount: microsToNumber(o.frozenAmount ?? 0n),
            currency: o.currency,
          },
  });
