// Password login, the current principal, profile and password changes, logout.
import { Router } from 'express';
import type { AppContext } from '../../../shared/context.js';
import { assertStrongPassword, changePassword, getAccount, updateProfile } from '../../../shared/identity/accounts.js';
import { login, revokeSession } from '../../../shared/identity/sessions.js';
import { body } from '../../http/validate.js';
import { authenticate, principalOf } from '../../middleware/auth.js';
import { presentMe } from './auth.presenters.js';
import { loginBody, passwordChangeBody, profileBody } from './auth.schemas.js';

export function authRoutes(ctx: AppContext): Router {
  const router = Router();
  const signedIn = authenticate(ctx);

  router.post('/login', async (req, res) => {
    const input = body(req, loginBody, 'Auth.InvalidRequest');
    const session = await login(ctx, input.email, input.password);
    res.json({
      accessToken: session.accessToken,
      tokenType: session.tokenType,
      expiresAt: session.expiresAt.toISOString(),
    });
  });

  router.get('/me', signedIn, async (_req, res) => {
    res.json(presentMe(await getAccount(ctx, principalOf(res).accountId)));
  });

  router.put('/me', signedIn, async (req, res) => {
    const input = body(req, profileBody, 'Auth.InvalidProfile');
    res.json(presentMe(await updateProfile(ctx, principalOf(res).accountId, input)));
  });

  router.post('/me/password', signedIn, async (req, res) => {
    const input = body(req, passwordChangeBody, 'Auth.InvalidPassword');
    assertStrongPassword(input.newPassword);
    const principal = principalOf(res);
    await changePassword(ctx, principal.accountId, {
      ...input,
      ...(principal.sessionId ? { keepSessionId: principal.sessionId } : {}),
    });
    res.json({ changed: true });
  });

  router.post('/logout', signedIn, async (_req, res) => {
    const principal = principalOf(res);
    if (principal.sessionId) await revokeSession(ctx, principal.sessionId);
    res.json({ loggedOut: Boolean(principal.sessionId) });
  });

  return router;
}
