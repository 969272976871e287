// Password login (a bearer token, or the console's HttpOnly cookie), the current principal, profile and password
// changes, logout.
import { assertStrongPassword, changePassword, getAccount, updateProfile } from '../../../shared/identity/accounts.js';
import { authenticateToken } from '../../../shared/identity/authenticator.js';
import { login, revokeSession } from '../../../shared/identity/sessions.js';
import { clientAddress } from '../../http/client-address.js';
import { assertSameOrigin } from '../../http/same-origin.js';
import {
  clearSessionCookie,
  consoleCookie,
  cookieName,
  cookieValues,
  setSessionCookie,
} from '../../http/session-cookies.js';
import { body } from '../../http/validate.js';
import { authenticatedByCookie, principalOf, signedIn } from '../../middleware/auth.js';
import { guessing, hashingBusy, signingIn } from '../../openapi/limit-notes.js';
import type { Area } from '../route.js';
import { presentMe } from './auth.presenters.js';
import { consoleSessionAnswer, loggedOut, loginAnswer, me, passwordChanged } from './auth.responses.js';
import { loginBody, passwordChangeBody, profileBody } from './auth.schemas.js';

// The console's sign-in: the session token goes only into the HttpOnly, SameSite=Strict cookie, never the body.
const account = { access: 'bearer', dailyQuota: 'counted', before: signedIn } as const;
const wrongCredentials =
  'Auth.InvalidCredentials: the e-mail or the password is wrong (the same answer for an unknown e-mail).';

export const authArea: Area = {
  tag: 'Auth',
  routes: [
    {
      method: 'post',
      path: '/login',
      summary: 'Sign in; returns a console session token',
      access: 'public',
      body: loginBody,
      response: loginAnswer,
      unauthorized: wrongCredentials,
      rateLimited: signingIn,
      busy: hashingBusy,
      handler: (ctx) => async (req, res) => {
        const input = body(req, loginBody, 'Auth.InvalidRequest');
        const session = await login(ctx, input, { address: clientAddress(req) });
        res.json({
          accessToken: session.accessToken,
          tokenType: session.tokenType,
          expiresAt: session.expiresAt.toISOString(),
        });
      },
    },
    {
      method: 'post',
      path: '/session',
      summary: 'Console sign-in: sets the HttpOnly, SameSite=Strict session cookie (same-origin requests only)',
      access: 'public',
      body: loginBody,
      returns:
        '`{expiresAt, account}`; the session token is only in the `__Host-ockhub_session` cookie (`ockhub_session` ' +
        'over plain http).',
      response: consoleSessionAnswer,
      unauthorized: wrongCredentials,
      rateLimited: signingIn,
      busy: hashingBusy,
      handler: (ctx) => async (req, res) => {
        assertSameOrigin(req, ctx.config);
        const input = body(req, loginBody, 'Auth.InvalidRequest');
        const session = await login(ctx, input, { address: clientAddress(req) });
        setSessionCookie(req, res, ctx.config, {
          ...consoleCookie,
          token: session.accessToken,
          expiresAt: session.expiresAt,
        });
        res.json({
          expiresAt: session.expiresAt.toISOString(),
          account: presentMe(await getAccount(ctx, session.accountId)),
        });
      },
    },
    {
      method: 'delete',
      path: '/session',
      summary: 'Console sign-out: revokes the cookie session and clears the cookie',
      access: 'public',
      status: 204,
      content: 'none',
      handler: (ctx) => async (req, res) => {
        // Two cookies of the name (one tossed in from a sibling subdomain): every session presented is revoked, none
        // picked; holding a token is the right to end its session.
        const tokens = cookieValues(req, cookieName(req, ctx.config, consoleCookie)).filter(Boolean);
        if (tokens.length > 0) assertSameOrigin(req, ctx.config);
        for (const token of tokens) {
          const signedInAs = await authenticateToken(ctx, token, { consumeDailyQuota: false }).catch(() => undefined);
          const sessionId = signedInAs?.principal.sessionId;
          if (sessionId) await revokeSession(ctx, sessionId);
        }
        clearSessionCookie(req, res, ctx.config, consoleCookie);
        res.status(204).end();
      },
    },
    {
      method: 'get',
      path: '/me',
      summary: 'The signed-in account',
      ...account,
      response: me,
      handler: (ctx) => async (_req, res) => {
        res.json(presentMe(await getAccount(ctx, principalOf(res).accountId)));
      },
    },
    {
      method: 'put',
      path: '/me',
      summary: 'Update the profile',
      ...account,
      response: me,
      body: profileBody,
      handler: (ctx) => async (req, res) => {
        const input = body(req, profileBody, 'Auth.InvalidProfile');
        res.json(presentMe(await updateProfile(ctx, principalOf(res).accountId, input)));
      },
    },
    {
      method: 'post',
      path: '/me/password',
      summary: 'Change the password',
      ...account,
      response: passwordChanged,
      body: passwordChangeBody,
      rateLimited: guessing,
      busy: hashingBusy,
      handler: (ctx) => async (req, res) => {
        const input = body(req, passwordChangeBody, 'Auth.InvalidPassword');
        assertStrongPassword(input.newPassword);
        const principal = principalOf(res);
        await changePassword(ctx, principal.accountId, {
          ...input,
          ...(principal.sessionId ? { keepSessionId: principal.sessionId } : {}),
          address: clientAddress(req),
        });
        res.json({ changed: true });
      },
    },
    {
      method: 'post',
      path: '/logout',
      summary: 'Revoke the current console session',
      ...account,
      response: loggedOut,
      handler: (ctx) => async (req, res) => {
        const principal = principalOf(res);
        if (principal.sessionId) await revokeSession(ctx, principal.sessionId);
        if (authenticatedByCookie(res)) clearSessionCookie(req, res, ctx.config, consoleCookie);
        res.json({ loggedOut: Boolean(principal.sessionId) });
      },
    },
  ],
};
