// Turns a zod failure into a 400 AppError whose message names the first offending field.
import type { z } from 'zod';
import { AppError } from './app-error.js';
import '../validation/zod-messages.js';

export function validationError(error: z.ZodError, code: string): AppError {
  const first = error.issues[0];
  const path = first && first.path.length > 0 ? first.path.join('.') : undefined;
  const message = first ? `${path ? `${path}: ` : ''}${first.message}` : 'Invalid request.';
  return new AppError(code, 400, message, {
    details: {
      errors: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  });
}

export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, code: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, code);
  return result.data;
}
