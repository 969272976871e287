// Drops the databases of this run.
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { urlFor } from './global-setup.mjs';

export default async function globalTeardown() {
  const run = process.env.OCKHUB_TEST_RUN;
  if (!run) return;
  await rm(path.join(os.tmpdir(), `ockhub-test-${run}`), { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: urlFor('postgres') });
  await admin.connect();
  try {
    const { rows } = await admin.query('select datname from pg_database where datname like $1', [
      `ockhub_test_${run}_%`,
    ]);
    for (const { datname } of rows) await admin.query(`drop database if exists "${datname}" with (force)`);
  } finally {
    await admin.end();
  }
}
