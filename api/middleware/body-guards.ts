// Refuses request bodies of a type the API does not read (415) before any handler runs.
import type { RequestHandler } from 'express';
import { AppError } from '../../shared/errors/app-error.js';

const readable = /^(application\/([\w.+-]+\+)?json|multipart\/form-data)\b/i;

export const acceptedBodyTypes: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.header('content-length') ?? 0) > 0 || req.header('transfer-encoding') !== undefined;
  if (!hasBody || req.method === 'GET' || req.method === 'HEAD') return next();
  const type = req.header('content-type') ?? '';
  if (!readable.test(type)) {
    return next(
      new AppError(
        'Request.UnsupportedMediaType',
        415,
        'Send the body as application/json (or multipart/form-data where a route takes a file).',
      ),
    );
  }
  next();
};
