// The AI gateway under /v1 besides the Models and Messages APIs (their own areas, for their error dialects): OpenAI
// Chat Completions, Responses, video tasks and web search/fetch, all in the OpenAI error shape.
import type { Area } from '../route.js';
import { chatCompletionsRoute } from './chat-completions.routes.js';
import { responsesRoutes } from './responses.routes.js';
import { videosRoutes } from './videos.routes.js';
import { webRoutes } from './web.routes.js';

export const gatewayArea: Area = {
  tag: 'Gateway',
  routes: [chatCompletionsRoute, ...responsesRoutes, ...videosRoutes, ...webRoutes],
};
