// The API's Redis command timeout (a hung Redis answers 503 at once instead of hanging requests), judged only after
// this process has read what Redis sent. ioredis rejects a command from a timer, and after a stall of this process's
// own event loop (a long garbage collection, a core taken by other work) Node runs expired timers before the poll
// phase that reads the socket: a command Redis had answered in a millisecond failed as "Command timed out", and its
// request with 503, though Redis was never late. Here the timer hands its verdict to setImmediate, which runs after
// that poll phase. This replaces ioredis's Command#setTimeout, keeping its one-timer-per-command field, which the
// command clears when it settles; test/health/reply-first-timeout.test.ts fails if an ioredis upgrade changes either.
import { Command } from 'ioredis';

/** ioredis's own field (private in its types): the timer it clears when the command settles. */
type CommandTimer = { _commandTimeoutTimer?: NodeJS.Timeout };

Command.prototype.setTimeout = function (this: Command, ms: number) {
  const timed = this as unknown as CommandTimer;
  if (timed._commandTimeoutTimer) return;
  timed._commandTimeoutTimer = setTimeout(() => {
    setImmediate(() => {
      if (!this.isSettled) this.reject(new Error('Command timed out'));
    });
  }, ms);
};
