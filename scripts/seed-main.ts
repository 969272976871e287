// `npm run seed`: applies the idempotent seed to the configured database.
import { loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { runSeed } from './seed.js';

const config = loadConfigOrExit();
const ctx = createAppContext(config, 'worker', 'seed');
const notes = await runSeed(ctx);
for (const note of notes) process.stderr.write(`[seed] ${note}\n`);
await ctx.close();
