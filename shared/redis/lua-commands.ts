// Every Lua command of this codebase, defined on a connection as soon as it is made. An auto-pipelined connection
// (the API's) needs this: an auto-pipeline copies the connection's commands when it opens, so a command defined later
// (lazily, on first use) is missing from a pipeline already open in that tick, and the call fails with "pipeline[name]
// is not a function" (ioredis issue 1931). Defining them is local (no round trip); each script is sent once per
// connection, then called by its SHA.
import type { Redis } from 'ioredis';
import { claimCommands } from '../idempotency/idempotency-claims.js';
import { credentialCommands } from '../identity/credential-cache.js';
import { quotaCommands } from '../quota/quota-script.js';
import { windowCommands } from '../rate-limit/sliding-window.js';
import { telemetryFlushCommands } from '../telemetry/telemetry-flush.js';
import { intakeCommands } from '../telemetry/telemetry-intake.js';
import { mirrorCommands } from '../wallet/mirror-steps.js';
import { pageCacheCommands } from '../web/page-cache.js';

export function defineLuaCommands(redis: Redis): void {
  claimCommands(redis);
  credentialCommands(redis);
  quotaCommands(redis);
  windowCommands(redis);
  telemetryFlushCommands(redis);
  intakeCommands(redis);
  mirrorCommands(redis);
  pageCacheCommands(redis);
}
