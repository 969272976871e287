// What a 400 says of a field that is missing. Zod's own words for it ("Invalid input: expected string, received
// undefined") read as if the client had sent something wrong; a person fixing the request wants "Required". Set once
// for the process's zod (imported by the module that turns zod failures into 400s, before any request is parsed);
// every other failure keeps zod's message.
import { z } from 'zod';

type MissingIssue = { code?: string; input?: unknown; expected?: unknown; values?: readonly unknown[] };

/** The message of an issue about a value that is absent, or undefined when the value was there. */
export function missingFieldMessage(issue: MissingIssue): string | undefined {
  if (issue.input !== undefined) return undefined;
  if (issue.code === 'invalid_type') return `Required: expected ${String(issue.expected)}.`;
  if (issue.code === 'invalid_value' && issue.values) {
    return `Required: one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`;
  }
  return undefined;
}

z.config({ customError: (issue) => missingFieldMessage(issue) });
