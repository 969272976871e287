// The organization a request acts in (SPEC section 4) and the project a `/api/projects/{projectId}` route names.
// Both run after `authenticate`; a stranger to the organization gets 404.
import type { RequestHandler, Response } from 'express';
import type { AppContext } from '../../shared/context.js';
import { isAppError } from '../../shared/errors/app-error.js';
import { loadProjectAccess, type ProjectAccess, requireOrganizationAdmin } from '../../shared/organizations/access.js';
import { type OrganizationAccess, resolveCurrentOrganization } from '../../shared/organizations/organizations.js';
import { pathParam } from '../http/path-params.js';
import type { Before } from '../routes/route.js';
import { authenticate, principalOf } from './auth.js';

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

/** The `before` of a route acting on the caller's current organization: signed in, then the organization. */
export const inCurrentOrganization: Before = (ctx, route) => [authenticate(ctx, route), currentOrganization(ctx)];

/** The `before` of a route only the current organization's Admins may use, to `action` (a phrase for the 403). */
export const organizationAdminsOnly =
  (action: string): Before =>
  (ctx, route) => [
    ...inCurrentOrganization(ctx, route),
    (_req, res, next) => {
      requireOrganizationAdmin(organizationOf(res), action);
      next();
    },
  ];

export function organizationOf(res: Response): OrganizationAccess {
  const access = res.locals.organization as OrganizationAccess | undefined;
  if (!access) throw new Error('currentOrganization() did not run for this route');
  return access;
}

export const optionalOrganizationOf = (res: Response) => res.locals.organization as OrganizationAccess | undefined;

/** The `before` of a `/api/projects/{projectId}` route: signed in, then the project and the caller's roles in it
 * (404 Project.NotFound for a project the caller cannot see, or an id that names none). */
export const inProject: Before = (ctx, route) => [
  authenticate(ctx, route),
  async (req, res, next) => {
    res.locals.project = await loadProjectAccess(ctx.db, pathParam(req, 'projectId'), principalOf(res).accountId);
    next();
  },
];

export function projectOf(res: Response): ProjectAccess {
  const access = res.locals.project as ProjectAccess | undefined;
  if (!access) throw new Error('inProject did not run for this route');
  return access;
}
