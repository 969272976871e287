// The one way a route reads a path parameter: it declares it (`params: { keyId: uuidParam(...) }`) and the route
// builder checks it before the handler runs, answering what the resource answers for a malformed value — a 400
// with the route's code, or the resource's own 404 (a malformed id names nothing). The handler then reads the
// checked string with `pathParam(req, 'keyId')`.
import type { Request } from 'express';
import { z } from 'zod';
import type { AppError } from '../../shared/errors/app-error.js';
import { validationError } from '../../shared/errors/validation.js';

export type PathParam = {
  schema: z.ZodType;
  /** The error a value the schema refuses gets (the request, for errors that name another parameter). */
  refused: (req: Request, error: z.ZodError) => AppError;
};

/** What a refused value answers: a 400 with this code, or the resource's 404. */
export type Refusal = { invalid: string } | { notFound: (req: Request) => AppError };

export function checkedParam(schema: z.ZodType, outcome: Refusal): PathParam {
  return {
    schema,
    refused: 'invalid' in outcome ? (_req, error) => validationError(error, outcome.invalid) : outcome.notFound,
  };
}

/** A UUID path id. A 404 id takes any 8-4-4-4-12 hex string, as `isUuid` (seeded rows have such ids); a 400 id
 * must be an RFC 9562 UUID, as the routes always asked. */
export const uuidParam = (outcome: Refusal): PathParam =>
  checkedParam('invalid' in outcome ? z.uuid() : z.guid(), outcome);

/** A path parameter of the matched route, as a string (declared ones were checked before the handler ran). */
export const pathParam = (req: Request, name: string): string => String(req.params[name]);
