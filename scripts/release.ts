// The release step (Procfile "release"): migrate, move Redis keys of an older layout, then upsert the job schedulers
// once for the whole deployment.
import '../shared/node-runtime.js';
import { loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { ensureDatabase, runMigrations } from '../shared/db/migrate.js';
import { registerSchedules } from '../shared/queues/schedules.js';
import { moveToTaggedKeys } from '../shared/redis/tagged-key-move.js';

const config = loadConfigOrExit();
await ensureDatabase(config.DATABASE_URL);
await runMigrations(config.DATABASE_URL);
const ctx = createAppContext(config, 'worker', 'release');
const moved = await moveToTaggedKeys(ctx);
const result = await registerSchedules(ctx.queues, ctx.redis, config.REDIS_PREFIX);
ctx.logger.info({ schedules: result, moved }, 'release done: migrated, keys moved and schedulers upserted');
await ctx.close();
