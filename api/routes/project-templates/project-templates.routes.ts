// `/api/project-templates`: the built-in templates, public custom ones and the current organization's own;
// an organization Admin creates custom ones.

import { z } from 'zod';
import type { TemplateConfig } from '../../../shared/db/schema/index.js';
import { requireOrganizationAdmin } from '../../../shared/organizations/access.js';
import { MAX_TEMPLATES_PER_ORGANIZATION } from '../../../shared/organizations/organization-limits.js';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION,
  type ProjectTemplate,
  templateNotFound,
} from '../../../shared/organizations/project-templates.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { withoutNulls } from '../../http/json.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { body, query } from '../../http/validate.js';
import { authenticate } from '../../middleware/auth.js';
import {
  currentOrganization,
  inCurrentOrganization,
  optionalOrganizationOf,
  organizationOf,
} from '../../middleware/organization-access.js';
import { pageFields } from '../../openapi/response-parts.js';
import type { Area } from '../route.js';
import { projectTemplate } from './project-templates.responses.js';
import { templateBody, templatesQuery } from './project-templates.schemas.js';

export const presentTemplate = (t: ProjectTemplate) => ({
  ...withoutNulls({
    id: t.id,
    name: t.name,
    description: t.description,
    category: t.category,
    tags: t.tags,
    isSystem: t.isSystem,
    isPublic: t.isPublic,
    usageCount: t.usageCount,
    icon: t.icon,
    organizationId: t.organizationId,
    createdAt: t.createdAt,
  }),
  config: { quota: { ...t.config.quota }, rateLimit: { ...t.config.rateLimit } } satisfies TemplateConfig,
});

const org = { access: 'bearer', dailyQuota: 'shown', organization: true } as const;

export const projectTemplatesArea: Area = {
  tag: 'Projects',
  routes: [
    {
      method: 'get',
      path: '/',
      summary: 'System and organization templates',
      ...org,
      query: templatesQuery,
      response: z.array(projectTemplate),
      envelopeFields: pageFields,
      returns:
        'A page of templates: the built-in ones, then the current organization’s own, then other organizations’ public ones.',
      before: (ctx, route) => [authenticate(ctx, route), currentOrganization(ctx, { optional: true })],
      handler: (ctx) => async (req, res) => {
        const filter = query(req, templatesQuery, 'Template.InvalidQuery');
        const { templates, total } = await listTemplates(ctx.db, optionalOrganizationOf(res)?.organizationId, filter);
        sendPage(res, templates.map(presentTemplate), { total, page: filter.page, size: filter.size });
      },
    },
    {
      method: 'post',
      path: '/',
      summary: 'Create an organization template',
      ...org,
      body: templateBody,
      status: 201,
      response: projectTemplate,
      conflicts: `Template.LimitReached: the organization already has ${MAX_TEMPLATES_PER_ORGANIZATION} templates of its own; Template.PublicLimitReached: ${MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION} public ones.`,
      before: inCurrentOrganization,
      handler: (ctx) => async (req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'create project templates');
        const input = body(req, templateBody, 'Template.Invalid');
        const created = await createTemplate(ctx.db, access.organizationId, access.accountId, input);
        sendData(res, presentTemplate(created), 201);
      },
    },
    {
      method: 'delete',
      path: '/:templateId',
      summary: 'Delete one of the organization’s own templates',
      ...org,
      params: { templateId: uuidParam({ notFound: templateNotFound }) },
      response: projectTemplate,
      returns: 'The deleted template. Projects made from it keep the quota they copied from it.',
      before: inCurrentOrganization,
      handler: (ctx) => async (req, res) => {
        const access = organizationOf(res);
        requireOrganizationAdmin(access, 'delete project templates');
        const deleted = await deleteTemplate(ctx.db, access.organizationId, pathParam(req, 'templateId'));
        sendData(res, presentTemplate(deleted));
      },
    },
  ],
};
