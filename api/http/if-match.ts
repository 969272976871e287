// Reads the If-Match precondition (RFC 9110 13.1.1): `*`, or a list of entity tags compared strongly (a weak tag
// never matches). A bare token without quotes is taken as one tag, so a hand-written header still works.
import type { Request } from 'express';

export function ifMatchOf(req: Request): '*' | string[] | undefined {
  const header = req.get('if-match')?.trim();
  if (!header) return undefined;
  if (header === '*') return '*';
  const tags = header.match(/(W\/)?"[^"]*"/g);
  if (!tags) return [header];
  return tags.filter((t) => !t.startsWith('W/')).map((t) => t.slice(1, -1));
}

/** The strong entity tag of a value, as it goes into an `ETag` header. */
export const entityTag = (value: string) => `"${value}"`;
