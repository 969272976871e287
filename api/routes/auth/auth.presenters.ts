// What leaves the process for accounts: the current principal (`Me`) and provisioned accounts.
import type { Account } from '../../../shared/identity/accounts.js';
import { isRole, permissionsFor } from '../../../shared/identity/principal.js';
import { withoutNulls } from '../../http/json.js';

export function presentMe(account: Account) {
  const roles = account.roles.filter(isRole);
  return {
    id: account.id,
    name: account.name,
    email: account.email,
    roles,
    permissions: permissionsFor(roles),
    isAdmin: roles.includes('Admin'),
  };
}

export function presentAccount(account: Account) {
  return withoutNulls({
    id: account.id,
    email: account.email,
    name: account.name,
    roles: account.roles,
    dailyQuota: account.dailyQuota,
    createdAt: account.createdAt,
    updatedAt: account.updatedAt,
  });
}
