// Query schemas of the MCP Registry API reads (v0.1): the list's paging and filters, and `include_deleted`.
import { z } from 'zod';
import { inCalendar, outsideCalendar } from '../../../shared/validation/calendar.js';
import { integerQueryDoc, param } from '../catalog/catalog.schemas.js';

const flag = param(z.enum(['true', 'false'])).transform((v) => v === 'true');

export const detailQuery = z.object({ include_deleted: flag });

export const listQuery = z.object({
  cursor: param(z.string().max(512)),
  limit: param(
    z
      .string()
      .regex(/^\d{1,4}$/, 'must be an integer from 1 to 100')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be an integer from 1 to 100').max(100, 'must be an integer from 1 to 100')),
  )
    .transform((v) => v ?? 30)
    .meta(integerQueryDoc(100, 30)),
  search: param(z.string().max(200)),
  updated_since: param(
    z.iso
      .datetime({ offset: true, error: 'must be an RFC 3339 date-time' })
      .refine((v) => inCalendar(new Date(v)), { message: outsideCalendar }),
  ),
  version: param(z.string().max(255)),
  include_deleted: flag,
});
