// Pieces the routes' response schemas share (Route.response): how the presenters write times and ids, and the
// fields a list's envelope carries beside `data` in the organization family (api/http/envelope.ts).
import { z } from 'zod';

/** A time as the presenters write it: `Date.toISOString()`, UTC. */
export const timestamp = z.iso.datetime();

/** The fields `sendPage` adds beside `data`. */
export const pageFields = {
  total: z.number().int().nonnegative().meta({ description: 'Rows the filter selects, over every page.' }),
  page: z.number().int().min(1),
  size: z.number().int().min(1),
};

/** The field a whole list (no paging) adds beside `data`. */
export const totalField = { total: z.number().int().nonnegative().meta({ description: 'Rows in `data`.' }) };

/** A quota limit as the presenters write it: a count, absent when there is none. */
export const optionalLimit = z.number().int().nonnegative().optional().meta({ description: 'Absent: no limit.' });

/** A page of the catalog family (`readPage` in shared/db/page.ts): `{items, page, pageSize, total, hasNext}`. */
export const itemsPage = (item: z.ZodType) =>
  z.object({
    items: z.array(item),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: z.number().int().nonnegative().meta({ description: 'Rows the filter selects, over every page.' }),
    hasNext: z.boolean(),
  });
