// Composes the Express application: security headers, correlation ids, body parsing, the route areas and the error
// renderers; the hot routes run the same chain through the direct lane (api/http/direct-lane.ts).
import express, { type Express, type RequestHandler } from 'express';
import type { AppContext } from '../shared/context.js';
import { clientAddressOf, type TrustProxy } from './http/client-address.js';
import { serveDirectly } from './http/direct-lane.js';
import { jsonBody } from './http/json-body.js';
import type { LeanRoute } from './http/lean-lane.js';
import { routeFamilyOf } from './http/route-family.js';
import { securityHeaders, securityHeadersByPath } from './http/security-headers.js';
import { acceptedBodyTypes } from './middleware/body-guards.js';
import { correlationId, takeCorrelationId } from './middleware/correlation-id.js';
import { errorHandler, unknownRoute } from './middleware/errors.js';
import { LargeBodyBudget } from './middleware/large-body-budget.js';
import { knownCallerForLargeBody, LARGE_BODY_BYTES } from './middleware/large-body-caller.js';
import { logWhenAnswered, requestLog } from './middleware/request-log.js';
import { observeWhenAnswered, requestMetrics } from './middleware/request-metrics.js';
import { mountRoutes } from './routes/index.js';

/** The JSON parser of a path: the first entry whose prefix holds the path. */
function bodyParsers(ctx: AppContext): { prefix: string; limit: number; parser: RequestHandler[] }[] {
  const knownCaller = knownCallerForLargeBody(ctx);
  const budget = new LargeBodyBudget(ctx.config.LARGE_BODY_BUDGET_BYTES);
  const videoLimit = 48 * 1_048_576;
  return [
    // Video creates may carry a reference image of up to 30 MB as a data URL (~40 MB of base64): read it, so the
    // size check answers a clear 400 rather than a 413 from the parser.
    {
      prefix: '/v1/videos',
      limit: videoLimit,
      parser: [knownCaller, budget.claim(videoLimit), ...jsonBody(videoLimit)],
    },
    // Messages may carry base64 images and documents, so the gateway reads larger bodies than the other families,
    // and only for a known caller past 64 KiB.
    {
      prefix: '/v1',
      limit: ctx.config.GATEWAY_BODY_LIMIT_BYTES,
      parser: [
        knownCaller,
        budget.claim(ctx.config.GATEWAY_BODY_LIMIT_BYTES),
        ...jsonBody(ctx.config.GATEWAY_BODY_LIMIT_BYTES),
      ],
    },
    { prefix: '', limit: ctx.config.BODY_LIMIT_BYTES, parser: jsonBody(ctx.config.BODY_LIMIT_BYTES) },
  ];
}

const holds = (prefix: string, path: string) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`);

/** The most of a body the lean lane reads: a larger one goes through the route's parser and its large-body checks. */
const LEAN_BODY_BYTES = LARGE_BODY_BYTES;

/**
 * What every request gets first (`everyRequest` in createApp), in the same order, on Node's own objects for a request
 * to `path` the lean lane serves; the body type check is `takesLean`'s.
 */
function leanBegin(ctx: AppContext, path: string): Pick<LeanRoute, 'begin' | 'headers'> {
  const security = securityHeadersByPath()(path).flat();
  const family = routeFamilyOf(path);
  return {
    begin: (req, res) => {
      const id = takeCorrelationId(req.headers['x-correlation-id'], res);
      logWhenAnswered(ctx.logger, req.method, path, res);
      observeWhenAnswered(family, res);
      return id;
    },
    headers: (id) => [...security, 'x-correlation-id', id],
  };
}

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
  const trust = app.get('trust proxy fn') as TrustProxy;
  serveDirectly(
    app,
    hot.map(({ method, path, chain, leanAnswer }) => {
      const parser = parsers.find((p) => holds(p.prefix, path));
      const lean: LeanRoute = {
        maxBytes: Math.min(LEAN_BODY_BYTES, parser?.limit ?? LEAN_BODY_BYTES),
        ...leanBegin(ctx, path),
        address: (req) => clientAddressOf(req, trust),
        ...(leanAnswer ? { answer: leanAnswer } : {}),
        rest: [...chain, unknownRoute],
      };
      return { method, path, chain: [...everyRequest, ...(parser?.parser ?? []), ...chain, unknownRoute], lean };
    }),
    onError,
  );
  return app;
}
