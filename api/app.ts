// Composes the Express application: security headers, correlation ids, body parsing, the route areas and the error
// renderers.
import express, { type Express } from 'express';
import type { AppContext } from '../shared/context.js';
import { jsonBody } from './http/json-body.js';
import { securityHeaders } from './http/security-headers.js';
import { acceptedBodyTypes } from './middleware/body-guards.js';
import { correlationId } from './middleware/correlation-id.js';
import { errorHandler, unknownRoute } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { requestMetrics } from './middleware/request-metrics.js';
import { mountRoutes } from './routes/index.js';

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.TRUST_PROXY);
  app.set('etag', false);
  app.use(securityHeaders());
  app.use(correlationId);
  app.use(requestLog(ctx.logger));
  app.use(requestMetrics);
  app.use(acceptedBodyTypes);
  // Messages may carry base64 images and documents, so the gateway reads larger bodies than the other families.
  // Video creates may carry a reference image of up to 30 MB as a data URL (~40 MB of base64): read it, so the
  // size check answers a clear 400 rather than a 413 from the parser.
  app.use('/v1/videos', jsonBody(48 * 1_048_576));
  app.use('/v1', jsonBody(ctx.config.GATEWAY_BODY_LIMIT_BYTES));
  app.use(jsonBody(ctx.config.BODY_LIMIT_BYTES));
  mountRoutes(app, ctx);
  app.use(unknownRoute);
  app.use(errorHandler(ctx.logger));
  return app;
}
