// The sentences the OpenAPI document gives limits that several areas share (sign-in guessing, password hashing).
export const guessing =
  'Auth.TooManyAttempts: too many failed attempts for this account or from this address (AUTH_FAILURES_*).';

export const hashingBusy =
  'Auth.Busy: every password hashing thread is busy and its queue full (PASSWORD_HASH_THREADS, PASSWORD_HASH_QUEUE_LIMIT).';
