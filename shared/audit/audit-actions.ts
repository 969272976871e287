// Every action the audit log records; its filters accept exactly these. A module of its own, without imports, so the
// console's filter offers the same list.
export const auditActions = [
  'account.create',
  'account.roles.set',
  'quota_request.approve',
  'quota_request.reject',
  'api_key.create',
  'api_key.delete',
  'wallet.recharge',
  'wallet.refund',
  'wallet.redeem',
  'top_up_code.issue',
  'top_up_code.revoke',
  'member.join',
  'member.role.set',
  'member.remove',
  'project_member.role.set',
  'project_member.remove',
  'invite_token.issue',
  'invite_token.revoke',
  'alert_settings.update',
  'catalog_item.approve',
  'catalog_item.request_changes',
  'catalog_item.reject',
  'catalog_item.remove',
  'report.resolve',
] as const;
export type AuditAction = (typeof auditActions)[number];
