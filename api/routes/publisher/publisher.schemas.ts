// Request schemas of the publisher routes: namespaces, draft creation and update, versions, submit-review.
import type { Request } from 'express';
import { z } from 'zod';
import { validationError } from '../../../shared/errors/validation.js';

export { draftBody, draftPatchBody, publisherBody, submitBody } from '../../../shared/catalog/draft-input.js';

/** A failure inside the `version` object is `Version.Invalid`; any other (a missing `version` too) is `fallback`. */
export function parseDraftInput<S extends z.ZodType>(req: Request, schema: S, fallback: string): z.output<S> {
  const result = schema.safeParse(req.body ?? {});
  if (result.success) return result.data;
  const first = result.error.issues[0];
  throw validationError(
    result.error,
    first?.path[0] === 'version' && !(first.path.length === 1 && first.code === 'invalid_type')
      ? 'Version.Invalid'
      : fallback,
  );
}

/** Taking a published item out of the catalog; the reason is kept in its transitions. */
export const unpublishBody = z.strictObject({ reason: z.string().trim().min(1).max(2000).optional() });
