// What leaves the process for projects, their members, quotas and usage.
import type { Project } from '../../../shared/organizations/access.js';
import type { ProjectApiKey } from '../../../shared/organizations/project-api-keys.js';
import type { ProjectFromTemplate } from '../../../shared/organizations/project-from-template.js';
import type { ProjectMemberEntry } from '../../../shared/organizations/project-members.js';
import type { QuotaUsageView } from '../../../shared/organizations/project-quotas.js';
import type { ProjectQuota } from '../../../shared/quota/quota-settings.js';
import { withoutNulls } from '../../http/json.js';
import { presentApiKey } from '../api-keys/api-keys.presenters.js';

export const presentProject = (p: Project) =>
  withoutNulls({
    id: p.id,
    name: p.name,
    description: p.description,
    organizationId: p.organizationId,
    status: p.status,
    templateId: p.templateId,
    createdAt: p.createdAt,
  });

export const presentProjectMember = (m: ProjectMemberEntry) =>
  withoutNulls({ userId: m.userId, email: m.email, name: m.name, role: m.role, addedAt: m.addedAt });

/** A key of the project for its managers: the key as its holder sees it, and who holds it. */
export const presentProjectApiKey = (key: ProjectApiKey) => {
  const { projectId: _project, ...shown } = presentApiKey(key);
  return { ...shown, owner: { id: key.owner.id, name: key.owner.name, email: key.owner.email } };
};

/** A limit that is not set (no limit) is omitted. */
export const presentQuota = (q: ProjectQuota) =>
  withoutNulls({
    projectId: q.projectId,
    dailyRequestLimit: q.dailyRequestLimit,
    dailyTokenLimit: q.dailyTokenLimit,
    monthlyRequestLimit: q.monthlyRequestLimit,
    monthlyTokenLimit: q.monthlyTokenLimit,
    requestsPerMinuteLimit: q.requestsPerMinuteLimit,
    enforceQuota: q.enforceQuota,
    customResetDay: q.customResetDay,
    createdAt: q.createdAt,
    updatedAt: q.updatedAt,
  });

export const presentQuotaUsage = (u: QuotaUsageView) => ({
  ...withoutNulls({
    projectId: u.projectId,
    period: u.period,
    enforceQuota: u.enforceQuota,
    dailyUsage: u.dailyUsage,
    monthlyUsage: u.monthlyUsage,
  }),
  quotaLimitRemaining: withoutNulls(u.quotaLimitRemaining),
});

/** The project with its template's quota and rate limit, and its API key: the one time the token is shown. */
export const presentProjectFromTemplate = (r: ProjectFromTemplate) => {
  const { requestsPerMinuteLimit, ...quota } = presentQuota(r.quota);
  return {
    ...presentProject(r.project),
    templateName: r.template.name,
    quota,
    rateLimit: withoutNulls({ requestsPerMinuteLimit }),
    apiKeys: [{ ...presentApiKey(r.apiKey.record), token: r.apiKey.token }],
  };
};
