// The release step (Procfile "release"): migrate, then upsert the job schedulers once for the whole deployment.
import { loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { ensureDatabase, runMigrations } from '../shared/db/migrate.js';
import { registerSchedules } from '../shared/queues/schedules.js';

const config = loadConfigOrExit();
await ensureDatabase(config.DATABASE_URL);
await runMigrations(config.DATABASE_URL);
const ctx = createAppContext(config, 'worker', 'release');
const result = await registerSchedules(ctx.queues, ctx.redis, config.REDIS_PREFIX);
ctx.logger.info({ schedules: result }, 'release done: migrated and schedulers upserted');
await ctx.close();
