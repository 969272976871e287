// One error type for every route family of the simulator, rendered as that family's vendor shape, and the
// error middleware that also turns body-parser failures (bad JSON, too large) into the family's shape.
import type { ErrorRequestHandler } from 'express';

export class ProviderError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(`simulated provider error ${status}`);
  }
}

/** Builds a family's error body for a status and message (used for failures the handlers did not shape). */
export type ErrorBodyRenderer = (status: number, message: string) => unknown;

export function familyErrorHandler(render: ErrorBodyRenderer): ErrorRequestHandler {
  return (err, _req, res, next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (err instanceof ProviderError) {
      res.status(err.status).set(err.headers).json(err.body);
      return;
    }
    const parserType = (err as { type?: string }).type;
    if (parserType === 'entity.parse.failed') {
      res.status(400).json(render(400, 'The request body is not valid JSON.'));
      return;
    }
    if (parserType === 'entity.too.large') {
      res.status(413).json(render(413, 'The request body is too large.'));
      return;
    }
    if (typeof err !== 'object' || err === null) return next(err);
    res.status(500).json(render(500, `Internal error of the simulated provider: ${(err as Error).message}`));
  };
}

/** The key a caller sent, checked against the configured one (any non-empty key when none is configured). */
export function checkKey(provided: string | undefined, expected: string | undefined): 'missing' | 'invalid' | 'ok' {
  if (!provided) return 'missing';
  if (expected !== undefined && provided !== expected) return 'invalid';
  return 'ok';
}

export function bearerToken(authorization: string | undefined): string | undefined {
  const match = authorization?.match(/^Bearer\s+(.+)$/i);
  return match?.[1]?.trim() || undefined;
}
