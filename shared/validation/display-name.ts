// A name people read beside other text (an account, organization, project, template, API key, publisher, item or
// category): one line of visible characters, in Unicode's composed form (NFC), so the same letters typed two ways are
// the same name. Pure zod: the console's forms check the same rule (security review #79 and its follow-up).
import { z } from 'zod';
import { firstUnseenCharacter, hasSeenCharacter, hasUntrimmedBlankEdge } from './unseen-characters.js';

const MAX = 100;

/** A display name of 1 to 100 characters after trimming and composing. */
export const displayName = () =>
  z
    .string()
    .trim()
    .normalize('NFC')
    .min(1)
    .max(MAX)
    // Judged only within the length limit (a longer name is refused by `max` already): walking the code points of
    // a 1 MiB name took about 100 ms of the main loop.
    .refine(
      (v) => v.length > MAX || firstUnseenCharacter(v) === null,
      'must be one line of visible text: no control, bidirectional or invisible formatting characters',
    )
    .refine(
      (v) => v.length > MAX || (hasSeenCharacter(v) && !hasUntrimmedBlankEdge(v)),
      'must be visible text: at least one letter, digit, punctuation mark or symbol, and no blank at either end',
    );
