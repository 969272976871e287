// `/api/project-templates`: the built-in templates, public custom ones and the current organization's own;
// an organization Admin creates custom ones.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import type { TemplateConfig } from '../../../shared/db/schema/index.js';
import { requireOrganizationAdmin } from '../../../shared/organizations/access.js';
import {
  createTemplate,
  listTemplates,
  type ProjectTemplate,
} from '../../../shared/organizations/project-templates.js';
import { sendData } from '../../http/envelope.js';
import { withoutNulls } from '../../http/json.js';
import { body, query } from '../../http/validate.js';
import { authenticate } from '../../middleware/auth.js';
import { currentOrganization, optionalOrganizationOf, organizationOf } from '../../middleware/organization-access.js';
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

export function projectTemplateRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx));

  router.get('/', currentOrganization(ctx, { optional: true }), async (req, res) => {
    const filter = query(req, templatesQuery, 'Template.InvalidQuery');
    const { templates, total } = await listTemplates(ctx.db, optionalOrganizationOf(res)?.organizationId, filter);
    sendData(res, templates.map(presentTemplate), 200, { total });
  });

  router.post('/', currentOrganization(ctx), async (req, res) => {
    const access = organizationOf(res);
    requireOrganizationAdmin(access, 'create project templates');
    const input = body(req, templateBody, 'Template.Invalid');
    sendData(res, presentTemplate(await createTemplate(ctx.db, access.organizationId, access.accountId, input)), 201);
  });

  return router;
}
