// Request bodies and queries of the Admin routes.
import { z } from 'zod';
import { roles } from '../../../shared/identity/principal.js';
import { displayName } from '../../../shared/validation/display-name.js';
import { pageParams } from '../catalog/catalog.schemas.js';
import { periodInOrder, recordFilters } from '../wallet/wallet.schemas.js';

const roleList = z.array(z.enum(roles)).max(3);

export const provisionAccountBody = z.object({
  email: z.email().max(320),
  name: displayName(),
  password: z.string().max(1024),
  roles: roleList.default([]),
});

export const rolesBody = z.object({ roles: roleList });

export const quotaRequestsQuery = z.object({
  status: z.enum(['pending', 'approved', 'rejected']).optional(),
});

export const directoryQuery = z.object({
  search: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().max(200).optional()),
  ...pageParams,
});

export const organizationRecordsQuery = z.object({ ...pageParams, ...recordFilters }).refine(...periodInOrder);
