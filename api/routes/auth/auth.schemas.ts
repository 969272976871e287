// Request bodies of the authentication and profile routes.
import { z } from 'zod';
import { displayName } from '../../../shared/validation/display-name.js';

export const loginBody = z.object({
  email: z.email().max(320),
  password: z.string().min(1).max(1024),
});

export const profileBody = z.object({
  name: displayName(),
});

export const passwordChangeBody = z.object({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().max(1024),
});
