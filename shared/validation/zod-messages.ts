// What a 400 says of a field that is missing, empty, too short or too long. Zod's own words ("Invalid input: expected
// string, received undefined", "Too small: expected string to have >=1 characters") read as a type checker's; a
// person fixing the request (or reading the console's error line) wants "Required" or "Must not be empty". Set once
// for the process's zod (imported by the module that turns zod failures into 400s, before any request is parsed);
// a schema's own message wins over these, and every other failure keeps zod's message.
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

type SizeIssue = {
  code?: string;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  inclusive?: boolean;
  exact?: boolean;
};

const units: Record<string, string> = { string: 'characters', array: 'items', set: 'items' };

/** The message of a length or range issue (strings, arrays, numbers), or undefined for other issues. */
export function sizeMessage(issue: SizeIssue): string | undefined {
  const small = issue.code === 'too_small';
  if (!small && issue.code !== 'too_big') return undefined;
  const bound = String(small ? issue.minimum : issue.maximum);
  const unit = units[issue.origin ?? ''];
  if (unit) {
    if (issue.exact) return `Must have exactly ${bound} ${unit}.`;
    if (small && bound === '1' && unit === 'characters') return 'Must not be empty.';
    if (small) return `Must have at least ${bound} ${bound === '1' ? 'item' : unit}.`;
    return `Must have at most ${bound} ${unit}.`;
  }
  if (issue.origin === 'number' || issue.origin === 'bigint') {
    if (small) return issue.inclusive === false ? `Must be greater than ${bound}.` : `Must be at least ${bound}.`;
    return issue.inclusive === false ? `Must be less than ${bound}.` : `Must be at most ${bound}.`;
  }
  return undefined;
}

z.config({ customError: (issue) => missingFieldMessage(issue) ?? sizeMessage(issue as SizeIssue) });
