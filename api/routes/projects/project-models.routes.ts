// The models a project's keys may call and what each costs, for its organization's members in the console (the
// gateway's own `/v1/models` needs the project's key, which a person in a browser does not hold, and names no price).
import { z } from 'zod';
import { modelPriceList } from '../../../shared/gateway/model-price-list.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { sendData } from '../../http/envelope.js';
import { defineRoutes } from '../route.js';
import { inProjectRoute } from './project-route.js';
import { pricedModel } from './projects.responses.js';

export const projectModelRoutes = defineRoutes([
  {
    method: 'get',
    path: '/:projectId/models',
    summary: "The models the project's keys may call, newest first, with the prices they are billed at (any member)",
    ...inProjectRoute,
    response: z.array(pricedModel),
    handler: (ctx) => {
      const models = modelPriceList(loadModelRegistry(ctx.config.MODEL_REGISTRY), ctx.config);
      return (_req, res) => sendData(res, models);
    },
  },
]);
