// Recognizes PostgreSQL errors by SQLSTATE (and constraint name), also when drizzle wraps them as the cause.
type PgError = { code?: string; constraint?: string; cause?: unknown };

function pgErrorOf(err: unknown): PgError | undefined {
  for (let e = err as PgError | undefined, depth = 0; e && depth < 5; e = e.cause as PgError | undefined, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e;
  }
  return undefined;
}

/** The error's SQLSTATE (five characters), when it is PostgreSQL's. */
export const sqlStateOf = (err: unknown): string | undefined => pgErrorOf(err)?.code;

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgErrorOf(err);
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
