// A name people read beside other text (an account, organization, project, template, API key, publisher, item or
// category): one line of visible characters, in Unicode's composed form (NFC), so the same letters typed two ways are
// the same name. Pure zod: the console's forms check the same rule (security review #79).
import { z } from 'zod';

/**
 * What a reader cannot see, or what rearranges the text after it: control characters (line breaks, tabs, NUL…),
 * the bidirectional marks, embeddings, overrides and isolates (a right-to-left override shows what follows it
 * backwards), zero-width spaces, word joiners and invisible operators, the byte order mark, and the Hangul fillers
 * that render as blank. ZWJ and ZWNJ stay: scripts such as Persian and Devanagari and emoji sequences need them.
 */
const unseen =
  /[\p{Cc}\u061C\u115F\u1160\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\u3164\uFEFF\uFFA0]/u;

/** A display name of 1 to 100 characters after trimming and composing. */
export const displayName = () =>
  z
    .string()
    .trim()
    .normalize('NFC')
    .min(1)
    .max(100)
    .refine(
      (v) => !unseen.test(v),
      'must be one line of visible text: no control, bidirectional or invisible formatting characters',
    );
