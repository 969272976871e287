// What the API and the console both know about top-up codes: their statuses and the limits of one issue. A module
// of its own, without imports, so the console's filter and form offer the API's own values.
export const topUpCodeStatuses = ['active', 'redeemed', 'revoked', 'expired'] as const;
export type TopUpCodeStatus = (typeof topUpCodeStatuses)[number];

/** At most this many codes per request, and this far ahead their expiry; without one, they expire in 30 days. */
export const MAX_CODES_PER_BATCH = 100;
export const MAX_CODE_LIFETIME_DAYS = 366;
export const DEFAULT_CODE_LIFETIME_DAYS = 30;
