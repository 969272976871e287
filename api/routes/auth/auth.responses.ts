// What the sign-in and account routes answer (auth.presenters.ts), as the OpenAPI document shows it.
import { z } from 'zod';
import { roles } from '../../../shared/identity/principal.js';
import { timestamp } from '../../openapi/response-parts.js';

export const me = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    roles: z.array(z.enum(roles)),
    permissions: z.array(z.string()).meta({ description: 'Derived from the roles, such as `catalog:publish`.' }),
    isAdmin: z.boolean(),
  })
  .meta({ id: 'Me' });

export const loginAnswer = z.object({
  accessToken: z.string().meta({ description: 'An `ocs_` console session token, valid 12 hours.' }),
  tokenType: z.literal('Bearer'),
  expiresAt: timestamp,
});

export const consoleSessionAnswer = z.object({ expiresAt: timestamp, account: me });

export const passwordChanged = z.object({ changed: z.literal(true) });

export const loggedOut = z.object({
  loggedOut: z.boolean().meta({ description: 'False when the credential was an API key (no session to revoke).' }),
});
