// The web console (console/, built by Vite into console/dist): its hashed assets, and for every page path of the
// single-page app its index.html, each answer with the console's Content-Security-Policy. A sub-application, so
// the API's own route list (and the OpenAPI document held to it) stays the API. See docs/console.md.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Express } from 'express';
import type { AppContext } from '../../../shared/context.js';
import type { Area } from '../route.js';
import { consoleContentSecurityPolicy } from './console-policy.js';

/** Where `npm run build` / `npm start` put the built console, from api/routes/console/ in source and in dist/. */
export const CONSOLE_DIST_DIR = fileURLToPath(new URL('../../../console/dist/', import.meta.url));

/** The page paths of the console's router (console/src/app-routes.tsx); anything else stays the API's. */
export const consolePagePaths = [
  '/',
  '/hub{/*rest}',
  '/sign-in',
  '/join{/*rest}',
  '/account{/*rest}',
  '/publisher{/*rest}',
  '/moderation{/*rest}',
  '/org{/*rest}',
  '/gateway{/*rest}',
  '/platform{/*rest}',
];

const notBuilt = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>ockhub console</title></head>
<body><h1>The console is not built</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it).</p></body></html>`;

export function consoleRoutes(ctx: AppContext, distDir = CONSOLE_DIST_DIR): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  const policy = consoleContentSecurityPolicy(ctx.config);
  const withPolicy: express.RequestHandler = (_req, res, next) => {
    res.setHeader('Content-Security-Policy', policy);
    next();
  };

  app.use(
    '/assets',
    withPolicy,
    express.static(path.join(distDir, 'assets'), { immutable: true, maxAge: '365d', index: false, redirect: false }),
  );
  app.get('/favicon.svg', withPolicy, (_req, res, next) => {
    res.sendFile(path.join(distDir, 'favicon.svg'), { maxAge: '1d' }, (err) => (err ? next() : undefined));
  });
  app.get(consolePagePaths, withPolicy, async (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    const page = await readFile(path.join(distDir, 'index.html'), 'utf8').catch(() => undefined);
    if (page === undefined) {
      res.status(503).type('html').send(notBuilt);
      return;
    }
    res.type('html').send(page);
  });
  return app;
}

/** Mounted last: the console's page paths never shadow an API route. */
export const consoleArea: Area = {
  tag: 'Console',
  routes: [],
  middleware: (router, ctx) => {
    router.use(consoleRoutes(ctx));
  },
};
