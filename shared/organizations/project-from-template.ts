// Creating a project from a template: the project, its Owner, its quota and rate limit from the template, one
// project API key (identity's createApiKey) and the template's usage count, all in one transaction.
import type { AuditActor } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import { type ApiKeyRecord, createApiKey } from '../identity/api-keys.js';
import type { ProjectQuota } from '../quota/quota-settings.js';
import type { Project } from './access.js';
import { upsertProjectQuota } from './project-quotas.js';
import { type ProjectTemplate, useTemplate } from './project-templates.js';
import { insertProject } from './projects.js';

export type ProjectFromTemplate = {
  project: Project;
  template: ProjectTemplate;
  quota: ProjectQuota;
  apiKey: { record: ApiKeyRecord; token: string };
};

export async function createProjectFromTemplate(
  ctx: AppContext,
  organizationId: string,
  accountId: string,
  input: { templateId: string; name: string; description?: string | undefined },
  actor: AuditActor,
): Promise<ProjectFromTemplate> {
  return ctx.db.transaction(async (tx) => {
    const template = await useTemplate(tx, input.templateId, organizationId);
    const project = await insertProject(tx, organizationId, accountId, {
      name: input.name,
      description: input.description ?? template.description ?? undefined,
      templateId: template.id,
    });
    const { quota: q, rateLimit } = template.config;
    const quota = await upsertProjectQuota(tx, project.id, {
      dailyRequestLimit: q.dailyRequestLimit ?? null,
      dailyTokenLimit: q.dailyTokenLimit ?? null,
      monthlyRequestLimit: q.monthlyRequestLimit ?? null,
      monthlyTokenLimit: q.monthlyTokenLimit ?? null,
      requestsPerMinuteLimit: rateLimit.requestsPerMinuteLimit ?? null,
      enforceQuota: true,
      customResetDay: 1,
    });
    const apiKey = await createApiKey(
      ctx,
      accountId,
      { name: `${input.name} key`, projectId: project.id },
      { db: tx, actor },
    );
    return { project, template, quota, apiKey };
  });
}
