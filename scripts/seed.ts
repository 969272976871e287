// `npm run seed`: applies the idempotent seed to the configured database.
import '../shared/node-runtime.js';
import { ConfigError, loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { runSeed } from './seed/seed-steps.js';

const config = loadConfigOrExit();
const ctx = createAppContext(config, 'worker', 'seed');
try {
  const notes = await runSeed(ctx);
  for (const note of notes) process.stderr.write(`[seed] ${note}\n`);
} catch (err) {
  // A setting the seed cannot work with (in production: ADMIN_PASSWORD) stops it like a bad setting stops a process.
  if (!(err instanceof ConfigError)) throw err;
  process.stderr.write(`[seed] ${err.message}\n`);
  process.exitCode = 78;
} finally {
  await ctx.close();
}
