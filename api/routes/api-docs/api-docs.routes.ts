// GET /openapi.json (the generated document) and GET /docs (Swagger UI served from swagger-ui-dist, no CDN, no
// inline script).
import { createRequire } from 'node:module';
import path from 'node:path';
import express from 'express';
import { openApiDocument } from '../../openapi/document.js';
import type { Area } from '../route.js';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>ockhub API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/start.js"></script>
</body>
</html>
`;

/** A file, not an inline script, so the page's Content-Security-Policy allows scripts from this origin only. */
const startScript = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
`;

export const apiDocsArea: Area = {
  tag: 'Operations',
  routes: [
    {
      method: 'get',
      path: '/openapi.json',
      summary: 'This OpenAPI 3.1 document',
      access: 'public',
      handler: () => (_req, res) => {
        res.json(openApiDocument());
      },
    },
    {
      method: 'get',
      path: '/docs',
      summary: 'Interactive API reference (Swagger UI)',
      access: 'public',
      content: 'html',
      handler: () => (_req, res) => {
        res.type('html').send(page);
      },
    },
    {
      method: 'get',
      path: '/docs/start.js',
      summary: 'The script that starts Swagger UI on /docs',
      access: 'public',
      content: 'text',
      handler: () => (_req, res) => {
        res.type('text/javascript').setHeader('cache-control', 'public, max-age=3600').send(startScript);
      },
    },
  ],
  trailingMiddleware: (router) => {
    router.use('/docs', express.static(swaggerUiDir, { index: false, fallthrough: true, maxAge: '1h' }));
  },
};
