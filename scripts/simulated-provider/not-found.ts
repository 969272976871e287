// Unknown routes: 404 in the error shape of the vendor family the path belongs to.
import type { RequestHandler } from 'express';
import { anthropicErrorBody } from './anthropic/errors.js';
import { openAiError } from './video/openai-video-routes.js';
import { arkError } from './video/seedance-params.js';

export const notFound: RequestHandler = (req, res) => {
  const message = `No route for ${req.method} ${req.path} on the simulated provider.`;
  if (req.path.startsWith('/v1/messages') || req.path.startsWith('/v1/models'))
    res.status(404).json(anthropicErrorBody(404, message));
  else if (req.path.startsWith('/v1/')) res.status(404).json(openAiError(404, message));
  else if (req.path.startsWith('/api/v3/')) res.status(404).json(arkError(404, 'NotFound', message));
  else res.status(404).json({ error: message });
};
