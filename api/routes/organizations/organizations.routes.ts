// `POST /api/organizations` creates an organization with the caller as Admin; `GET` lists the caller's ones.
import { createOrganization, listOrganizationsOf } from '../../../shared/organizations/organizations.js';
import { sendData } from '../../http/envelope.js';
import { body } from '../../http/validate.js';
import { principalOf, signedIn } from '../../middleware/auth.js';
import { presentOrganization } from '../organization/organization.presenters.js';
import { createOrganizationBody } from '../organization/organization.schemas.js';
import type { Area } from '../route.js';

export const organizationsArea: Area = {
  tag: 'Organizations',
  before: signedIn,
  routes: [
    {
      method: 'post',
      path: '/',
      summary: 'Create an organization',
      access: 'bearer',
      dailyQuota: 'shown',
      body: createOrganizationBody,
      status: 201,
      handler: (ctx) => async (req, res) => {
        const input = body(req, createOrganizationBody, 'Organization.Invalid');
        sendData(res, presentOrganization(await createOrganization(ctx, principalOf(res).accountId, input)), 201);
      },
    },
    {
      method: 'get',
      path: '/',
      summary: 'My organizations',
      access: 'bearer',
      dailyQuota: 'shown',
      handler: (ctx) => async (_req, res) => {
        const organizations = await listOrganizationsOf(ctx.db, principalOf(res).accountId);
        sendData(res, organizations.map(presentOrganization), 200, { total: organizations.length });
      },
    },
  ],
};
