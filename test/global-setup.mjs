// Runs once before the test workers: one migrated template database per run, cloned into one database per
// jest worker. Plain JS that imports only packages (jest's globalSetup runs outside its module system).
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

const baseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/ockhub';

export function urlFor(name) {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
};

export default async function globalSetup(globalConfig) {
  const run = String(process.pid);
  const admin = new pg.Client({ connectionString: urlFor('postgres') });
  await admin.connect();
  try {
    const { rows } = await admin.query("select datname from pg_database where datname like 'ockhub_test_%'");
    for (const { datname } of rows) {
      const pid = Number(datname.split('_')[2]);
      if (pid && !alive(pid)) await admin.query(`drop database if exists "${datname}" with (force)`);
    }
    const template = `ockhub_test_${run}_tpl`;
    await admin.query(`create database "${template}"`);
    const pool = new pg.Pool({ connectionString: urlFor(template), max: 1 });
    await migrate(drizzle(pool), { migrationsFolder: new URL('../shared/db/migrations', import.meta.url).pathname });
    await pool.end();
    const workers = Math.max(1, globalConfig.maxWorkers || 1);
    for (let i = 1; i <= workers; i++) {
      await admin.query(`create database "ockhub_test_${run}_w${i}" template "${template}"`);
    }
  } finally {
    await admin.end();
  }
  process.env.OCKHUB_TEST_RUN = run;
}
