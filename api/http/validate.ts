// Request validation with zod: a failure is a 400 in the route family's shape with a stable code.
import type { Request } from 'express';
import type { z } from 'zod';
import { parseOrThrow } from '../../shared/errors/validation.js';

export const body = <S extends z.ZodType>(req: Request, schema: S, code = 'Request.Invalid'): z.output<S> =>
  parseOrThrow(schema, req.body ?? {}, code);

export const query = <S extends z.ZodType>(req: Request, schema: S, code = 'Request.InvalidQuery'): z.output<S> =>
  parseOrThrow(schema, req.query, code);
