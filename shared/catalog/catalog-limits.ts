// What one publisher may hold in the catalog, and how much of it one draft-detail read returns (docs/catalog.md,
// "Limits of what a publisher holds"). Each count is taken with its parent row locked, so it stays exact when
// writes race.
import { conflict } from '../errors/app-error.js';

/**
 * Versions of one item, whatever their status (published, superseded and rejected ones count: they are stored).
 * A project releasing every week for two years stays under it; it bounds the rows (and skill bundles) one item can
 * hold and the version list of its draft detail.
 */
export const MAX_VERSIONS_PER_ITEM = 100;

/**
 * Items of one account that are not in the public catalog (never approved, or unpublished), across its namespaces.
 * Unreviewed work is what a publisher can make without a moderator; published items passed a review each.
 */
export const MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT = 50;

/** Publisher namespaces one account owns: a namespace is a brand or organization, and few need more than a few. */
export const MAX_PUBLISHERS_PER_ACCOUNT = 20;

/** Transitions shown in a draft detail: the newest ones (submit and withdraw can repeat without end). */
export const DETAIL_TRANSITIONS = 100;

/** What the draft-detail routes answer, for their OpenAPI description. */
export const draftDetailReturns = `The item with its edited metadata and stats; every version (newest first) as a summary, with the current and the pending version in full (\`full: true\`); the newest ${DETAIL_TRANSITIONS} transitions, oldest first.`;

export const catalogLimitErrors = {
  versions: () =>
    conflict(
      'Version.LimitReached',
      `An item may hold at most ${MAX_VERSIONS_PER_ITEM} versions; this one has reached it.`,
    ),
  unpublishedItems: () =>
    conflict(
      'Draft.LimitReached',
      `An account may hold at most ${MAX_UNPUBLISHED_ITEMS_PER_ACCOUNT} items that are not published (drafts, items in review, sent back or rejected): get one published before creating another.`,
    ),
  publishers: () =>
    conflict(
      'Publisher.LimitReached',
      `An account may own at most ${MAX_PUBLISHERS_PER_ACCOUNT} publisher namespaces.`,
    ),
};
