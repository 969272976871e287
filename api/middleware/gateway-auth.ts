// Authentication of the gateway routes: an API key bound to a project (Bearer, or x-api-key where allowed).
// A valid key or session without a project is 403 in the route's error shape.
import type { RequestHandler, Response } from 'express';
import type { AppContext } from '../../shared/context.js';
import { forbidden, unauthorized } from '../../shared/errors/app-error.js';
import type { GatewayCaller } from '../../shared/gateway/gateway-caller.js';
import { organizationOfProject } from '../../shared/gateway/project-directory.js';
import { authenticate, principalOf } from './auth.js';

export function gatewayAuth(ctx: AppContext, options: { allowXApiKey?: boolean } = {}): RequestHandler[] {
  return [
    authenticate(ctx, { ...options, dailyQuota: 'none' }),
    async (_req, res, next) => {
      const principal = principalOf(res);
      if (principal.via !== 'api-key' || !principal.projectId) {
        throw forbidden(
          'The gateway needs an API key bound to a project: POST /api/v1/api-keys {name, projectId} makes one, ' +
            'and POST /api/projects/from-template makes a project with its key.',
          'Auth.ProjectKeyRequired',
        );
      }
      const caller: GatewayCaller = {
        accountId: principal.accountId,
        projectId: principal.projectId,
        organizationId: await organizationOfProject(ctx, principal.projectId),
        ...(principal.keyId ? { keyId: principal.keyId } : {}),
      };
      res.locals.gatewayCaller = caller;
      next();
    },
  ];
}

export function gatewayCallerOf(res: Response): GatewayCaller {
  const caller = res.locals.gatewayCaller as GatewayCaller | undefined;
  if (!caller) throw unauthorized();
  return caller;
}
