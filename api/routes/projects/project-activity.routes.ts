// What a project's gateway traffic did, for its organization's members in the console: recent requests (model,
// tokens, cost, status) and video tasks (live status, the finished video's URL).

import { z } from 'zod';
import { listProjectRequests } from '../../../shared/gateway/request-log-reads.js';
import { listProjectVideoTasks } from '../../../shared/video/video-tasks.js';
import { sendData, sendPage } from '../../http/envelope.js';
import { query } from '../../http/validate.js';
import { projectOf } from '../../middleware/organization-access.js';
import { pageFields } from '../../openapi/response-parts.js';
import { defineRoutes } from '../route.js';
import { presentProjectRequest, presentProjectVideo } from './project-activity.presenters.js';
import { inProjectRoute } from './project-route.js';
import { projectRequest, projectVideo } from './projects.responses.js';
import { projectRequestsQuery, projectVideosQuery } from './projects.schemas.js';

export const projectActivityRoutes = defineRoutes([
  {
    method: 'get',
    path: '/:projectId/requests',
    summary: "The project's recent gateway requests: model, tokens, cost, status (any member)",
    ...inProjectRoute,
    query: projectRequestsQuery,
    response: z.array(projectRequest),
    envelopeFields: pageFields,
    handler: (ctx) => async (req, res) => {
      const options = query(req, projectRequestsQuery, 'Project.InvalidQuery');
      const { requests, total } = await listProjectRequests(ctx.db, projectOf(res).project.id, options);
      sendPage(res, requests.map(presentProjectRequest), { total, page: options.page, size: options.size });
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
