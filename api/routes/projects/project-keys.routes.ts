// Every API key bound to a project, whoever made it: listed and revoked by the project's Owner or an organization
// Admin (a plain Member gets 403 and sees their own keys through /api/v1/api-keys).
import { z } from 'zod';
import { requireProjectManager } from '../../../shared/organizations/access.js';
import {
  listProjectApiKeys,
  projectKeyNotFound,
  revokeProjectApiKey,
} from '../../../shared/organizations/project-api-keys.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { pathParam, uuidParam } from '../../http/path-params.js';
import { query } from '../../http/validate.js';
import { auditActorOf } from '../../middleware/audit-actor.js';
import { projectOf } from '../../middleware/organization-access.js';
import { pageFields } from '../../openapi/response-parts.js';
import { defineRoutes } from '../route.js';
import { inProjectRoute } from './project-route.js';
import { presentProjectApiKey } from './projects.presenters.js';
import { projectApiKey, projectApiKeyRevoked } from './projects.responses.js';
import { projectKeysQuery } from './projects.schemas.js';

export const projectKeyRoutes = defineRoutes([
  {
    method: 'get',
    path: '/:projectId/api-keys',
    summary: "Every API key bound to the project, with its holder (the project's Owner or an organization Admin)",
    ...inProjectRoute,
    query: projectKeysQuery,
    response: z.array(projectApiKey),
    envelopeFields: pageFields,
    handler: (ctx) => async (req, res) => {
      const access = projectOf(res);
      requireProjectManager(access, 'see every key of the project (your own: GET /api/v1/api-keys)');
      const options = query(req, projectKeysQuery, 'Project.InvalidQuery');
      const { keys, total } = await listProjectApiKeys(ctx, access.project.id, options);
      sendPage(res, keys.map(presentProjectApiKey), { total, page: options.page, size: options.size });
    },
  },

  {
    method: 'delete',
    path: '/:projectId/api-keys/:keyId',
    audited: true,
    summary: "Revoke (delete) any API key bound to the project (the project's Owner or an organization Admin)",
    ...inProjectRoute,
    params: { ...inProjectRoute.params, keyId: uuidParam({ notFound: projectKeyNotFound }) },
    response: projectApiKeyRevoked,
    returns: 'The key is deleted: refused at once and for ever, on the gateway and everywhere else.',
    handler: (ctx) => async (req, res) => {
      const access = projectOf(res);
      requireProjectManager(access, 'revoke keys of the project');
      const keyId = pathParam(req, 'keyId');
      await revokeProjectApiKey(ctx, access.project.id, keyId, auditActorOf(req, res));
      sendData(res, { message: 'The API key was revoked.', id: keyId });
    },
  },
]);
