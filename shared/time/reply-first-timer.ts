// A timeout that judges another process's answer only after this process has read its sockets. After a stall of
// this process's own event loop (a long garbage collection, a core taken by other work) Node runs expired timers
// before the poll phase that reads the sockets, so a plain timer fails a wait whose answer arrived in time. This one
// hands its verdict to setImmediate, which runs after that poll phase. Used by the API's Redis command timeout
// (shared/redis/reply-first-timeout.ts) and the PostgreSQL pool's checkout timeout (shared/db/reply-first-pool.ts).

/** Calls `onTimeout` `ms` after now, once the sockets have been read; clear it with clearTimeout. */
export const setReplyFirstTimeout = (onTimeout: () => void, ms: number): NodeJS.Timeout =>
  setTimeout(() => setImmediate(onTimeout), ms);
