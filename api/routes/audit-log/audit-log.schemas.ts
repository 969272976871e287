// Query strings of the audit log routes: paging, the action, and a time range [from, to) of ISO dates or date-times
// (a date alone is 00:00 UTC of that day).
import { z } from 'zod';
import { auditActions } from '../../../shared/audit/audit-log.js';
import { inCalendar, outsideCalendar } from '../../../shared/validation/calendar.js';
import { pageParams } from '../catalog/catalog.schemas.js';

const instant = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()])
  .transform((v) => new Date(v.length === 10 ? `${v}T00:00:00Z` : v))
  .refine(inCalendar, { message: outsideCalendar });

const filters = {
  action: z.enum(auditActions).optional(),
  from: instant.optional(),
  to: instant.optional(),
};

const rangeInOrder = (q: { from?: Date | undefined; to?: Date | undefined }) => !q.from || !q.to || q.from < q.to;
const rangeProblem = { message: 'from must be earlier than to', path: ['to'] };

/** `/api/organization/audit-log` (organization family: `page`, `size`). */
export const organizationAuditQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    size: z.coerce.number().int().min(1).max(100).default(20),
    ...filters,
  })
  .refine(rangeInOrder, rangeProblem);

/** `/api/v1/admin/audit-log` (catalog family: `page`, `pageSize`), every organization or one. */
export const adminAuditQuery = z
  .object({ ...pageParams, organizationId: z.uuid().optional(), ...filters })
  .refine(rangeInOrder, rangeProblem);
