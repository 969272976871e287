// The caller's address as Express derives it under TRUST_PROXY (`trust proxy`): what rate limits count and what the
// audit log records.
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import proxyaddr from 'proxy-addr';

export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

export type TrustProxy = (address: string, hop: number) => boolean;

/** The same address from Node's own request, with the application's compiled `trust proxy fn` (what req.ip uses). */
export const clientAddressOf = (req: IncomingMessage, trust: TrustProxy): string =>
  proxyaddr(req, trust) ?? req.socket.remoteAddress ?? 'unknown';
