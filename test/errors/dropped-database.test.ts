// The database dropped under a running API (a mistaken DROP DATABASE, a restore that drops it first): its pooled
// connections are ended (57P01) and every new one is refused with 3D000, "database does not exist". What reads
// PostgreSQL answers 503 in its family's shape, as when PostgreSQL is down, and /ready says PostgreSQL is down.
// A catalog read answered 500 here before: 3D000 was not known as an unavailable database.
import pg from 'pg';
import { createHarness, freshTestDatabase, type Harness } from '../support/harness.js';

let h: Harness;
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await freshTestDatabase();
  h = await createHarness({ DATABASE_URL: databaseUrl });
});
afterAll(async () => {
  await h?.close();
});

async function dropDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  try {
    await admin.query(`drop database "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

it('answers 503 Service.Unavailable, never 500, once the database is dropped', async () => {
  expect((await h.http.get('/ready')).status).toBe(200); // a pooled connection to the database, now open
  expect((await h.http.get('/api/v1/mcp?search=before')).status).toBe(200);

  await dropDatabase(databaseUrl);

  // Different searches, so no answer comes from the read cache.
  for (const search of ['dropped', 'still-dropped']) {
    const read = await h.http.get(`/api/v1/mcp?search=${search}`);
    expect(read.status).toBe(503);
    expect(read.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.parse(read.text).title).toBe('Service.Unavailable');
    expect(read.headers['retry-after']).toBe('1');
  }
  const ready = await h.http.get('/ready');
  expect(ready.status).toBe(503);
  expect(ready.body.checks.postgres).toBe('down');
});
