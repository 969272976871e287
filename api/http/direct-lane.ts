// The hot routes (the gateway's Messages calls, telemetry intake) served without Express's router: a request whose
// method and path match one exactly runs the very same middleware and handlers, in the same order, as one chain
// built at start-up. Express's router otherwise matches every request against each application-level layer and
// each mounted router in turn (path-to-regexp, parameter merging, URL prefix stripping and restoring), work these
// routes do not need. Anything else (another letter case, a trailing slash, any other route) goes through
// Express's router as before, where the same routes are mounted too.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { type ExpressHandOver, type LeanRoute, serveLean, takesLean } from './lean-lane.js';

/** A hot route: its whole chain, and, for a route with a lean answer, how the lean lane serves it (lean-lane.ts). */
export type DirectRoute = { method: string; path: string; chain: RequestHandler[]; lean?: LeanRoute };

type ExpressInternals = {
  handle(req: IncomingMessage, res: ServerResponse, callback?: NextFunction): void;
  request: object;
  response: object;
};

/** What Express's app.handle and router.handle set up before the first middleware runs. */
function asExpress(app: ExpressInternals, req: IncomingMessage, res: ServerResponse): [Request, Response] {
  Object.setPrototypeOf(req, app.request);
  Object.setPrototypeOf(res, app.response);
  const request = req as Request;
  const response = res as Response;
  request.res = response;
  response.req = request;
  response.locals ??= Object.create(null);
  request.originalUrl ||= req.url ?? '/';
  request.baseUrl = '';
  request.params = {};
  return [request, response];
}

/** Runs the chain as Express's router would: a thrown error or rejected promise goes to `onError`. */
function runChain(chain: RequestHandler[], req: Request, res: Response, onError: ErrorRequestHandler): void {
  let index = 0;
  const lastResort = () => {
    if (res.headersSent) res.destroy();
    else res.status(500).end();
  };
  const fail = (err: unknown) => {
    try {
      onError(err, req, res, lastResort);
    } catch {
      lastResort();
    }
  };
  const next = (reason?: unknown): void => {
    let err = reason;
    // Skipping to another route or out of a router means nothing in a flat chain: no hot route's middleware does it,
    // and one that starts to must fail loudly rather than be served differently from the router.
    if (err === 'route' || err === 'router') err = new Error(`next('${err}') is not supported on a hot path`);
    if (err !== undefined && err !== null) {
      fail(err);
      return;
    }
    const handler = chain[index++];
    if (!handler) {
      lastResort();
      return;
    }
    try {
      const result: unknown = handler(req, res, next);
      if (result instanceof Promise) result.then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
    } catch (e) {
      next(e);
    }
  };
  next();
}

/** Makes `app` serve `routes` directly; each chain must end in a handler that answers or fails (unknownRoute). */
export function serveDirectly(app: Express, routes: DirectRoute[], onError: ErrorRequestHandler): void {
  for (const route of routes) {
    // Express runs a four-argument function only for errors; the chain would call it for every request.
    if (route.chain.some((handler) => handler.length > 3)) {
      throw new Error(`${route.method.toUpperCase()} ${route.path}: a hot path's chain cannot hold error middleware`);
    }
  }
  const byKey = new Map(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r]));
  const internals = app as unknown as ExpressInternals;
  const viaRouter = internals.handle.bind(app);
  const handOver: ExpressHandOver = {
    fail: (req, res, err) => {
      const [request, response] = asExpress(internals, req, res);
      runChain([(_req, _res, next) => next(err)], request, response, onError);
    },
    run: (req, res, chain) => {
      const [request, response] = asExpress(internals, req, res);
      runChain(chain, request, response, onError);
    },
  };
  internals.handle = (req, res, callback) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const route = byKey.get(`${req.method} ${query < 0 ? url : url.slice(0, query)}`);
    if (!route) {
      viaRouter(req, res, callback);
      return;
    }
    if (route.lean && takesLean(req, route.lean.maxBytes)) serveLean(route.lean, req, res, handOver);
    else handOver.run(req, res, route.chain);
  };
}
