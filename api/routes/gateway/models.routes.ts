// GET /v1/models (paginated, Anthropic's list shape; OpenAI's for OpenAI's SDKs) and GET /v1/models/{id}:
// the registry, neither counted nor billed.
import { notFound } from '../../../shared/errors/app-error.js';
import { modelPage, modelsNewestFirst } from '../../../shared/gateway/model-pages.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { pathParam } from '../../http/path-params.js';
import { query } from '../../http/validate.js';
import type { Area } from '../route.js';
import { gatewayCaller } from './gateway-route.js';
import {
  presentAnthropicModel,
  presentAnthropicPage,
  presentOpenAiList,
  presentOpenAiModel,
  wantsOpenAiShape,
} from './models.presenters.js';
import { modelAnswer, modelList } from './models.responses.js';
import { modelListQuery } from './models.schemas.js';

export const modelsArea: Area = {
  tag: 'Gateway',
  routes: [
    {
      method: 'get',
      path: '/',
      summary:
        "Models of the gateway: Anthropic's paginated list (OpenAI's list for a client whose User-Agent names one of OpenAI's SDKs)",
      ...gatewayCaller,
      query: modelListQuery,
      response: modelList,
      returns:
        '`{data:[{id, type:"model", display_name, created_at, capabilities}], has_more, first_id, last_id}`, newest ' +
        'first; OpenAI\'s SDKs get `{object:"list", data:[{id, object:"model", created, owned_by}]}`.',
      handler: (ctx) => {
        const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
        return (req, res) => {
          if (wantsOpenAiShape(req)) {
            res.json(presentOpenAiList(modelsNewestFirst(registry)));
            return;
          }
          const q = query(req, modelListQuery, 'Models.InvalidQuery');
          const page = modelPage(registry, { limit: q.limit, afterId: q.after_id, beforeId: q.before_id });
          res.json(presentAnthropicPage(page));
        };
      },
    },
    {
      method: 'get',
      path: '/:id',
      summary: "One model, in Anthropic's shape (OpenAI's for OpenAI's SDKs)",
      ...gatewayCaller,
      response: modelAnswer,
      // Any string may name a model: the registry answers 404 Model.NotFound for one it does not list.
      handler: (ctx) => {
        const registry = loadModelRegistry(ctx.config.MODEL_REGISTRY);
        return (req, res) => {
          const id = pathParam(req, 'id');
          const model = registry.get(id);
          if (!model) throw notFound('Model.NotFound', `model: ${id}`);
          res.json(wantsOpenAiShape(req) ? presentOpenAiModel(model) : presentAnthropicModel(model));
        };
      },
    },
  ],
};
