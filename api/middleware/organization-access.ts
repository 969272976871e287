// The organization a request acts in (SPEC section 4) and the project a `/api/projects/{projectId}` route names.
// Both run after `authenticate`; a stranger to the organization gets 404.
import type { RequestHandler, Response } from 'express';
import type { AppContext } from '../../shared/context.js';
import { isAppError } from '../../shared/errors/app-error.js';
import { loadProjectAccess, type ProjectAccess } from '../../shared/organizations/access.js';
import { type OrganizationAccess, resolveCurrentOrganization } from '../../shared/organizations/organizations.js';
import { principalOf } from './auth.js';

type Options = {
  /** Prefer `organizationId` from the JSON body over the header (project creation names its organization). */
  fromBody?: boolean;
  /** Without a header and with no single membership, go on with no organization instead of 400. */
  optional?: boolean;
};

export function currentOrganization(ctx: AppContext, options: Options = {}): RequestHandler {
  return async (req, res, next) => {
    const { accountId } = principalOf(res);
    const fromBody = options.fromBody ? (req.body?.organizationId as unknown) : undefined;
    const requested = typeof fromBody === 'string' ? fromBody : req.header('x-organization-id');
    if (options.optional && !requested) {
      res.locals.organization = await resolveCurrentOrganization(ctx.db, accountId, undefined).catch((err) => {
        if (isAppError(err) && err.status === 400) return undefined;
        throw err;
      });
    } else {
      res.locals.organization = await resolveCurrentOrganization(ctx.db, accountId, requested);
    }
    next();
  };
}

export function organizationOf(res: Response): OrganizationAccess {
  const access = res.locals.organization as OrganizationAccess | undefined;
  if (!access) throw new Error('currentOrganization() did not run for this route');
  return access;
}

export const optionalOrganizationOf = (res: Response) => res.locals.organization as OrganizationAccess | undefined;

/** For `router.param('projectId', …)`: loads the project and the caller's roles in it. */
export function projectParam(ctx: AppContext) {
  return async (_req: unknown, res: Response, next: (err?: unknown) => void, projectId: string): Promise<void> => {
    try {
      res.locals.project = await loadProjectAccess(ctx.db, projectId, principalOf(res).accountId);
      next();
    } catch (err) {
      next(err);
    }
  };
}

export function projectOf(res: Response): ProjectAccess {
  const access = res.locals.project as ProjectAccess | undefined;
  if (!access) throw new Error('the projectId parameter was not loaded');
  return access;
}
