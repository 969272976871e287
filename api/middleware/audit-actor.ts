// The audit log's view of the caller: the signed-in account, the credential it used, its address and the request's
// correlation id. Routes that make a privileged change pass it to their service.
import type { Request, RequestHandler, Response } from 'express';
import { admitAuditedChange } from '../../shared/audit/audit-allowance.js';
import type { AuditActor } from '../../shared/audit/audit-log.js';
import type { AppContext } from '../../shared/context.js';
import type { Principal } from '../../shared/identity/principal.js';
import { clientAddress } from '../http/client-address.js';
import { principalOf } from './auth.js';

export function auditActorOf(req: Request, res: Response): AuditActor {
  const principal = principalOf(res);
  const credentialId = principal.via === 'api-key' ? principal.keyId : principal.sessionId;
  return {
    accountId: principal.accountId,
    credential: { kind: principal.via, id: credentialId ?? null },
    clientAddress: clientAddress(req),
    correlationId: (res.locals.correlationId as string | undefined) ?? null,
  };
}

/**
 * The allowance of a route declared `audited` (mount.ts puts it after the route's authentication): one audited request
 * of the signed-in account (shared/audit/audit-allowance.ts). A caller not signed in (an invite accepted without a
 * session) passes: what it may do is limited on its own.
 */
export function auditedChangeAllowance(ctx: AppContext): RequestHandler {
  return async (_req, res, next) => {
    const principal = res.locals.principal as Principal | undefined;
    if (principal) await admitAuditedChange(ctx, principal);
    next();
  };
}
