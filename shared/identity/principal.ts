// Who is calling: the account behind a verified API key or console session, with its roles.
export const roles = ['Publisher', 'Moderator', 'Admin'] as const;
export type Role = (typeof roles)[number];

export type Principal = {
  accountId: string;
  roles: Role[];
  via: 'api-key' | 'session';
  keyId?: string;
  sessionId?: string;
  projectId?: string;
};

const rolePermissions: Record<Role, string[]> = {
  Publisher: ['catalog:publish'],
  Moderator: ['catalog:moderate'],
  Admin: ['accounts:admin', 'catalog:moderate', 'quota:approve'],
};

/** Permissions every signed-in account has, plus those its roles grant. */
export function permissionsFor(accountRoles: readonly Role[]): string[] {
  const all = new Set(['api-keys:manage', 'catalog:read', 'catalog:report']);
  for (const role of accountRoles) for (const p of rolePermissions[role]) all.add(p);
  return [...all].sort();
}

export const isRole = (value: string): value is Role => (roles as readonly string[]).includes(value);
