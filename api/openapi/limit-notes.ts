// The sentences the OpenAPI document gives limits that several areas share (sign-in guessing, password hashing).
export const guessing =
  'Auth.TooManyAttempts: too many failed attempts for this account or from this address (AUTH_FAILURES_*).';

export const hashingBusy =
  'Auth.Busy: every password hashing thread is busy and its queue full (PASSWORD_HASH_THREADS, PASSWORD_HASH_QUEUE_LIMIT).';

/** A sign-in's limits: the guessing limits, and successful sign-ins per account. */
export const signingIn = `${guessing} Auth.TooManySignIns: this account signed in SIGN_INS_PER_ACCOUNT_PER_HOUR times within the hour.`;
