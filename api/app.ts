// Composes the Express application: security headers, correlation ids, body parsing, the route areas and the error
// renderers; the hot routes run the same chain through the direct lane (api/http/direct-lane.ts).
import express, { type Express, type RequestHandler } from 'express';
import type { AppContext } from '../shared/context.js';
import { serveDirectly } from './http/direct-lane.js';
import { jsonBody } from './http/json-body.js';
import { securityHeaders } from './http/security-headers.js';
import { acceptedBodyTypes } from './middleware/body-guards.js';
import { correlationId } from './middleware/correlation-id.js';
import { errorHandler, unknownRoute } from './middleware/errors.js';
import { LargeBodyBudget } from './middleware/large-body-budget.js';
import { knownCallerForLargeBody } from './middleware/large-body-caller.js';
import { requestLog } from './middleware/request-log.js';
import { requestMetrics } from './middleware/request-metrics.js';
import { mountRoutes } from './routes/index.js';

/** The JSON parser of a path: the first entry whose prefix holds the path. */
function bodyParsers(ctx: AppContext): { prefix: string; parser: RequestHandler[] }[] {
  const knownCaller = knownCallerForLargeBody(ctx);
  const budget = new LargeBodyBudget(ctx.config.LARGE_BODY_BUDGET_BYTES);
  const videoLimit = 48 * 1_048_576;
  return [
    // Video creates may carry a reference image of up to 30 MB as a data URL (~40 MB of base64): read it, so the
    // size check answers a clear 400 rather than a 413 from the parser.
    { prefix: '/v1/videos', parser: [knownCaller, budget.claim(videoLimit), ...jsonBody(videoLimit)] },
    // Messages may carry base64 images and documents, so the gateway reads larger bodies than the other families,
    // and only for a known caller past 64 KiB.
    {
      prefix: '/v1',
      parser: [
        knownCaller,
        budget.claim(ctx.config.GATEWAY_BODY_LIMIT_BYTES),
        ...jsonBody(ctx.config.GATEWAY_BODY_LIMIT_BYTES),
      ],
    },
    { prefix: '', parser: jsonBody(ctx.config.BODY_LIMIT_BYTES) },
  ];
}

const holds = (prefix: string, path: string) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`);

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.TRUST_PROXY);
  app.set('etag', false);
  const everyRequest = [securityHeaders(), correlationId, requestLog(ctx.logger), requestMetrics, acceptedBodyTypes];
  app.use(everyRequest);
  const parsers = bodyParsers(ctx);
  for (const { prefix, parser } of parsers) {
    if (prefix === '') app.use(parser);
    else app.use(prefix, parser);
  }
  const hot = mountRoutes(app, ctx);
  const onError = errorHandler(ctx.logger);
  app.use(unknownRoute);
  app.use(onError);
  serveDirectly(
    app,
    hot.map((route) => ({
      ...route,
      chain: [
        ...everyRequest,
        ...(parsers.find((p) => holds(p.prefix, route.path))?.parser ?? []),
        ...route.chain,
        unknownRoute,
      ],
    })),
    onError,
  );
  return app;
}
