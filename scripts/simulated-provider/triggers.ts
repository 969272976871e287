// The markers a test writes into a prompt or query to make the simulated provider misbehave on purpose.

export const triggers = {
  /** Messages, video create, search: HTTP 500 in the family's error shape. */
  upstreamError: '[upstream-error]',
  /** Messages: HTTP 529 overloaded_error, or with `fallbacks` the first fallback's answer; search: HTTP 503. */
  overloaded: '[overloaded]',
  /** Messages, video create, search: HTTP 429 with `retry-after`. */
  rateLimited: '[rate-limited]',
  /** Messages, streaming: a few deltas, then an `error` event and the end of the stream. */
  streamError: '[stream-error]',
  /** Messages, streaming: a longer pause between events (client-disconnect tests). */
  slow: '[slow]',
  /** Video: the task always ends failed. */
  fail: '[fail]',
  /** Video: the first task ever created with this exact prompt fails, later ones succeed. */
  failOnce: '[fail-once]',
} as const;

export type Trigger = keyof typeof triggers;

export function has(text: string, trigger: Trigger): boolean {
  return text.includes(triggers[trigger]);
}

/** Seconds a rate-limited caller is told to wait. */
export const RETRY_AFTER_SECONDS = 1;
