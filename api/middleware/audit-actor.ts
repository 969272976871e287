// The audit log's view of the caller: the signed-in account, the credential it used, its address and the request's
// correlation id. Routes that make a privileged change pass it to their service.
import type { Request, Response } from 'express';
import type { AuditActor } from '../../shared/audit/audit-log.js';
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
