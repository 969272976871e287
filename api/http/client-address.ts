// The caller's address as Express derives it under TRUST_PROXY (`trust proxy`): what rate limits count and what the
// audit log records.
import type { Request } from 'express';

export const clientAddress = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';
