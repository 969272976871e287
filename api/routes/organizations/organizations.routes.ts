// `POST /api/organizations` creates an organization with the caller as Admin; `GET` lists the caller's ones.
import { z } from 'zod';
import { limitedOrganizationCreation } from '../../../shared/organizations/organization-rates.js';
import { createOrganization, listOrganizationsOf } from '../../../shared/organizations/organizations.js';
import { sendData } from '../../http/envelope.js';
import { body } from '../../http/validate.js';
import { principalOf, signedIn } from '../../middleware/auth.js';
import { totalField } from '../../openapi/response-parts.js';
import { presentOrganization } from '../organization/organization.presenters.js';
import { organization } from '../organization/organization.responses.js';
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
      response: organization,
      rateLimited:
        'Organization.TooManyCreated: the account created ORGANIZATIONS_PER_ACCOUNT_PER_DAY organizations within the last 24 hours.',
      handler: (ctx) => async (req, res) => {
        const input = body(req, createOrganizationBody, 'Organization.Invalid');
        const accountId = principalOf(res).accountId;
        const organization = await limitedOrganizationCreation(ctx, accountId, () =>
          createOrganization(ctx, accountId, input),
        );
        sendData(res, presentOrganization(organization), 201);
      },
    },
    {
      method: 'get',
      path: '/',
      summary: 'My organizations',
      access: 'bearer',
      dailyQuota: 'shown',
      response: z.array(organization),
      envelopeFields: totalField,
      handler: (ctx) => async (_req, res) => {
        const organizations = await listOrganizationsOf(ctx.db, principalOf(res).accountId);
        sendData(res, organizations.map(presentOrganization), 200, { total: organizations.length });
      },
    },
  ],
};
