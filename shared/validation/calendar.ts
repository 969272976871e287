// The instants a request may name: those from 0001-01-01 to 9999-12-31 in UTC, the calendar that PostgreSQL's
// timestamptz and JavaScript's four-digit ISO form share. zod's ISO checks accept a year 0000, which PostgreSQL does
// not have, and an offset that carries 9999-12-31 into the year 10000, which JavaScript writes `+010000-…` and
// PostgreSQL refuses: either reached a query and answered 500 (security review #78).
const first = Date.parse('0001-01-01T00:00:00.000Z');
const last = Date.parse('9999-12-31T23:59:59.999Z');

/** The last instant of the calendar: where a period that runs to the end of 9999-12-31 stops. */
export const lastInstant = new Date(last);

export const inCalendar = (at: Date): boolean => at.getTime() >= first && at.getTime() <= last;

/** The refinement's message, after the field's name. */
export const outsideCalendar = 'must be between 0001-01-01 and 9999-12-31 (UTC)';
