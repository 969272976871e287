// OpenAPI paths of console sign-in and the signed-in account.
import type { AreaPaths } from '../../openapi/route-docs.js';
import { documentRoutes } from '../../openapi/route-docs.js';
import { loginBody, passwordChangeBody, profileBody } from './auth.schemas.js';

const base = '/api/v1/auth';

export const authPaths: AreaPaths = (registry) =>
  documentRoutes(registry, 'Auth', [
    {
      method: 'post',
      path: `${base}/login`,
      summary: 'Sign in; returns a console session token',
      access: 'public',
      body: loginBody,
    },
    { method: 'get', path: `${base}/me`, summary: 'The signed-in account', access: 'bearer' },
    { method: 'put', path: `${base}/me`, summary: 'Update the profile', access: 'bearer', body: profileBody },
    {
      method: 'post',
      path: `${base}/me/password`,
      summary: 'Change the password',
      access: 'bearer',
      body: passwordChangeBody,
    },
    { method: 'post', path: `${base}/logout`, summary: 'Revoke the current console session', access: 'bearer' },
  ]);
