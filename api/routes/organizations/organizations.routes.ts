// `POST /api/organizations` creates an organization with the caller as Admin; `GET` lists the caller's ones.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { createOrganization, listOrganizationsOf } from '../../../shared/organizations/organizations.js';
import { sendData } from '../../http/envelope.js';
import { body } from '../../http/validate.js';
import { authenticate, principalOf } from '../../middleware/auth.js';
import { presentOrganization } from '../organization/organization.presenters.js';
import { createOrganizationBody } from '../organization/organization.schemas.js';

export function organizationsRoutes(ctx: AppContext): Router {
  const router = Router();
  router.use(authenticate(ctx));

  router.post('/', async (req, res) => {
    const input = body(req, createOrganizationBody, 'Organization.Invalid');
    sendData(res, presentOrganization(await createOrganization(ctx, principalOf(res).accountId, input)), 201);
  });

  router.get('/', async (_req, res) => {
    const organizations = await listOrganizationsOf(ctx.db, principalOf(res).accountId);
    sendData(res, organizations.map(presentOrganization), 200, { total: organizations.length });
  });

  return router;
}
