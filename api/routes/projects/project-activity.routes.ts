// What a project's gateway traffic did, for its organization's members in the console: recent requests (model,
// tokens, cost, status), its usage per day and model, and video tasks (live status, the finished video's URL).

import { z } from 'zod';
import { projectUsage } from '../../../shared/gateway/project-usage.js';
import { readRefusals } from '../../../shared/gateway/refusal-counts.js';
import { listProjectRequests, REQUEST_LIST_WINDOW } from '../../../shared/gateway/request-log-reads.js';
import { listProjectVideoTasks } from '../../../shared/video/video-tasks.js';
import { getWallet } from '../../../shared/wallet/wallets.js';
import { sendData } from '../../http/envelope.js';
import { query } from '../../http/validate.js';
import { projectOf } from '../../middleware/organization-access.js';
import { pageFields } from '../../openapi/response-parts.js';
import { defineRoutes } from '../route.js';
import { presentProjectRequest, presentProjectVideo } from './project-activity.presenters.js';
import { inProjectRoute } from './project-route.js';
import { projectRequest, projectUsage as projectUsageSchema, projectVideo } from './projects.responses.js';
import { projectRequestsQuery, projectUsageQuery, projectVideosQuery } from './projects.schemas.js';

export const projectActivityRoutes = defineRoutes([
  {
    method: 'get',
    path: '/:projectId/requests',
    summary: "The project's recent gateway requests (its newest `reach`): model, tokens, cost, status (any member)",
    ...inProjectRoute,
    query: projectRequestsQuery,
    response: z.array(projectRequest),
    envelopeFields: {
      ...pageFields,
      reach: z.number().int().meta({
        description:
          "The list reaches the project's newest this many requests; `total` and the pages count within them.",
      }),
    },
    handler: (ctx) => async (req, res) => {
      const options = query(req, projectRequestsQuery, 'Project.InvalidQuery');
      const { requests, total } = await listProjectRequests(ctx.db, projectOf(res).project.id, options);
      sendData(res, requests.map(presentProjectRequest), 200, {
        total,
        page: options.page,
        size: options.size,
        reach: REQUEST_LIST_WINDOW,
      });
    },
  },

  {
    method: 'get',
    path: '/:projectId/usage',
    summary:
      "The project's gateway usage over its last `days` UTC days (30 by default, at most 90): per day, and per operation and model with tokens and what it took from the wallet, and its refused requests of the days kept (any member)",
    ...inProjectRoute,
    query: projectUsageQuery,
    response: projectUsageSchema,
    handler: (ctx) => async (req, res) => {
      const { days } = query(req, projectUsageQuery, 'Project.InvalidQuery');
      const { project } = projectOf(res);
      const [wallet, usage, refusals] = await Promise.all([
        getWallet(ctx.db, project.organizationId),
        projectUsage(ctx.db, project.id, days),
        readRefusals(
          ctx.redis,
          ctx.config.REDIS_PREFIX,
          { organizationId: project.organizationId, projectId: project.id },
          days,
        ),
      ]);
      sendData(res, { currency: wallet.currency, ...usage, refusals });
    },
  },

  {
    method: 'get',
    path: '/:projectId/videos',
    summary: "The project's video tasks, newest first, with the finished video's URL (any member)",
    ...inProjectRoute,
    query: projectVideosQuery,
    response: z.array(projectVideo),
    envelopeFields: { hasMore: z.boolean().meta({ description: 'Older tasks follow: pass the last id as `after`.' }) },
    handler: (ctx) => async (req, res) => {
      const page = query(req, projectVideosQuery, 'Project.InvalidQuery');
      const { tasks, hasMore } = await listProjectVideoTasks(ctx, projectOf(res).project.id, page);
      sendData(res, tasks.map(presentProjectVideo), 200, { hasMore });
    },
  },
]);
