// Request bodies of /v1/web/search and /v1/web/fetch (seed 02 field names, camelCase).
import { z } from 'zod';
import { inCalendar, outsideCalendar } from '../../../shared/validation/calendar.js';

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
const withOffset = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i;

/** The instant a date or date-time names; a date-time without an offset is read as UTC, not the server's zone. */
const instant = (value: string) =>
  Date.parse(dateOnly.test(value) ? `${value}T00:00:00Z` : withOffset.test(value) ? value : `${value}Z`);

const isoDate = z
  .union([z.iso.date(), z.iso.datetime({ offset: true, local: true })], {
    error: 'must be an ISO 8601 date (YYYY-MM-DD) or date-time',
  })
  .refine((value) => inCalendar(new Date(instant(value))), outsideCalendar);

/** A date-time keeps its UTC calendar day; providers filter by day. */
export const utcDay = (value: string) =>
  dateOnly.test(value) ? value : new Date(instant(value)).toISOString().slice(0, 10);

export const webSearchBody = z
  .object({
    query: z.string({ error: 'is required' }).trim().min(1, 'must not be empty').max(400),
    maxResults: z.number().int().min(1, 'must be between 1 and 20').max(20, 'must be between 1 and 20').default(5),
    startDate: isoDate.optional(),
    endDate: isoDate.optional(),
    includeImages: z.boolean().default(false),
  })
  .refine((b) => !b.startDate || !b.endDate || instant(b.startDate) <= instant(b.endDate), {
    message: 'must not be after endDate',
    path: ['startDate'],
  });

/** Only the shape is checked here: http(s) and a parsable URL. Address rules apply per URL in the workers. */
const httpUrl = z
  .string({ error: 'must be a URL string' })
  .max(4096)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { message: 'must be an absolute http or https URL' },
  );

export const webFetchBody = z.object({
  urls: z
    .array(httpUrl, { error: 'must be an array of URLs' })
    .min(1, 'must hold at least 1 URL')
    .max(20, 'must hold at most 20 URLs'),
});
