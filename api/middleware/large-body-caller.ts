// Bodies are read and parsed before the routes' guards (api/app.ts), so on the gateway, whose bodies may reach 32 MiB
// (48 MiB on /v1/videos), a body larger than LARGE_BODY_BYTES is read only for a caller the API knows: without valid
// credentials it is a 401 before a byte of it is parsed (security review #89: 32 MiB of `[{},{},…]` sent with no
// account held the main loop for seconds). Every gateway route needs a caller anyway; smaller bodies keep the order
// of every other route (a malformed body is a 400 before a missing key's 401). A project key whose organization's
// wallet is inactive, or has nothing in it, gets its 402 here too, before the body is read: a moneyless account
// costs us no large body's parse.
import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../../shared/context.js';
import { organizationOfProject } from '../../shared/gateway/project-directory.js';
import { walletCanPay } from '../../shared/wallet/wallet-mirror.js';
import { walletEmpty, walletInactive } from '../../shared/wallet/wallets.js';
import { authenticate, principalOf } from './auth.js';

export const LARGE_BODY_BYTES = 64 * 1024;

/** A body past LARGE_BODY_BYTES, or of a length not declared (chunked). */
export function hasLargeBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (length === undefined) return req.headers['transfer-encoding'] !== undefined;
  return Number(length) > LARGE_BODY_BYTES;
}

/** Authenticates the caller of a large body before it is read (the route authenticates again, from its cache). */
export function knownCallerForLargeBody(ctx: AppContext): RequestHandler {
  const check = authenticate(ctx, { allowXApiKey: true });
  return async (req, res, next) => {
    if (!hasLargeBody(req)) return next();
    await check(req, res, () => undefined);
    const principal = principalOf(res);
    if (principal.via === 'api-key' && principal.projectId) {
      const can = await walletCanPay(ctx, await organizationOfProject(ctx, principal.projectId));
      if (can === 'inactive') throw walletInactive();
      if (can === 'empty') throw walletEmpty();
    }
    next();
  };
}
