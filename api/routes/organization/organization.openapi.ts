// OpenAPI paths of the current organization: invites, members, invite tokens, bulk invites and the wallet.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { alertSettingsBody, historyQuery, rechargeBody, recordsQuery, refundBody } from '../wallet/wallet.schemas.js';
import { acceptInviteBody, inviteTokenBody, memberRoleBody, membersQuery } from './organization.schemas.js';

const base = '/api/organization';
const org = { access: 'bearer', organization: true } as const;

export const organizationPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Organization', [
    { method: 'get', path: `${base}/invites/{token}`, summary: 'Preview an invite', access: 'public' },
    {
      method: 'post',
      path: `${base}/invites/{token}/accept`,
      summary: 'Accept an invite (signed in, or creating an account from the body)',
      access: 'optional-bearer',
      body: acceptInviteBody,
      status: 201,
    },
    { method: 'get', path: `${base}/members`, summary: 'Members of the organization', ...org, query: membersQuery },
    {
      method: 'put',
      path: `${base}/members/{userId}/role`,
      summary: "Change a member's role",
      ...org,
      body: memberRoleBody,
    },
    { method: 'delete', path: `${base}/members/{userId}`, summary: 'Remove a member', ...org },
    {
      method: 'post',
      path: `${base}/invite-tokens`,
      summary: 'Issue an invite token',
      ...org,
      body: inviteTokenBody,
      status: 201,
    },
    { method: 'get', path: `${base}/invite-tokens`, summary: 'List invite tokens', ...org },
    { method: 'delete', path: `${base}/invite-tokens/{id}`, summary: 'Revoke an invite token', ...org },
    {
      method: 'post',
      path: `${base}/bulk-invite`,
      summary: 'Invite members from a CSV file',
      ...org,
      multipartFiles: ['file'],
      status: 201,
    },
    { method: 'get', path: `${base}/bulk-invite/{id}`, summary: 'Result of a bulk invite', ...org },
    { method: 'get', path: `${base}/wallet`, summary: 'Wallet balance', ...org },
    {
      method: 'post',
      path: `${base}/wallet/recharge`,
      summary: 'Recharge the wallet (Idempotency-Key honoured)',
      ...org,
      body: rechargeBody,
      status: 201,
    },
    { method: 'get', path: `${base}/wallet/records`, summary: 'Wallet records', ...org, query: recordsQuery },
    { method: 'get', path: `${base}/wallet/alerts`, summary: 'Balance alert settings', ...org },
    {
      method: 'put',
      path: `${base}/wallet/alerts`,
      summary: 'Change balance alert settings',
      ...org,
      body: alertSettingsBody,
    },
    { method: 'post', path: `${base}/wallet/alerts/test`, summary: 'Send a test alert', ...org },
    { method: 'get', path: `${base}/wallet/alerts/history`, summary: 'Alert history', ...org, query: historyQuery },
    {
      method: 'post',
      path: `${base}/wallet/records/{recordId}/refund`,
      summary: 'Refund a consumption record (platform Admin)',
      access: 'bearer',
      body: refundBody,
      status: 201,
    },
  ]);
