// The API's Redis command timeout (a hung Redis answers 503 at once instead of hanging requests), judged only after
// this process has read what Redis sent (shared/time/reply-first-timer.ts): with ioredis's own timer, a stall of the
// API's loop failed commands Redis had answered in a millisecond, and their requests with 503. This replaces ioredis's
// Command#setTimeout, keeping its one-timer-per-command field, which the command clears when it settles;
// test/health/reply-first-timeout.test.ts fails if an ioredis upgrade changes either.
import { Command } from 'ioredis';
import { setReplyFirstTimeout } from '../time/reply-first-timer.js';

/** ioredis's own field (private in its types): the timer it clears when the command settles. */
type CommandTimer = { _commandTimeoutTimer?: NodeJS.Timeout };

Command.prototype.setTimeout = function (this: Command, ms: number) {
  const timed = this as unknown as CommandTimer;
  if (timed._commandTimeoutTimer) return;
  timed._commandTimeoutTimer = setReplyFirstTimeout(() => {
    if (!this.isSettled) this.reject(new Error('Command timed out'));
  }, ms);
};
