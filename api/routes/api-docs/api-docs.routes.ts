// GET /openapi.json (the generated document) and GET /docs (Swagger UI served from swagger-ui-dist, no CDN).
import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { openApiDocument } from '../../openapi/document.js';

const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>ockhub API</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
  </script>
</body>
</html>
`;

export function apiDocsRoutes(_ctx: AppContext): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument());
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  router.use('/docs', express.static(swaggerUiDir, { index: false, fallthrough: true, maxAge: '1h' }));
  return router;
}
