// Creates the database if needed and applies every pending migration.
import '../shared/node-runtime.js';
import { loadConfigOrExit } from '../shared/config/index.js';
import { ensureDatabase, runMigrations } from '../shared/db/migrate.js';

const config = loadConfigOrExit();
const created = await ensureDatabase(config.DATABASE_URL);
await runMigrations(config.DATABASE_URL);
process.stderr.write(`[migrate] ${created ? 'created the database and ' : ''}applied all migrations\n`);
