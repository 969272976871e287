// PostgreSQL refusing the API's login (a role renamed or made NOLOGIN, a password rotated on the server before the
// setting): reconnecting fails with class 28 (28000 invalid authorization, 28P01 invalid password). Like a dropped
// database, what reads PostgreSQL answers 503 in its family's shape and /ready says PostgreSQL is down; the error is
// logged with its code for the operator. A catalog read answered 500 here before (28000 was not known as an
// unavailable database). The machines here trust local logins, so 28P01 is not produced; it is classified alike.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createHarness, freshTestDatabase, type Harness } from '../support/harness.js';

let h: Harness;
let databaseUrl: string;
const role = `ock_login_${randomBytes(4).toString('hex')}`;

function adminClient(url: string) {
  return new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
}

async function asAdmin(url: string, sql: string) {
  const admin = adminClient(url);
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

beforeAll(async () => {
  databaseUrl = await freshTestDatabase();
  await asAdmin(databaseUrl, `create role "${role}" with login superuser`);
  const asRole = Object.assign(new URL(databaseUrl), { username: role, password: '' }).toString();
  h = await createHarness({ DATABASE_URL: asRole });
});
afterAll(async () => {
  await h?.close();
  const name = new URL(databaseUrl).pathname.slice(1);
  await asAdmin(databaseUrl, `drop database if exists "${name}" with (force)`);
  await asAdmin(databaseUrl, `drop role if exists "${role}"`);
});

it('answers 503 Service.Unavailable, never 500, once PostgreSQL refuses the login (SQLSTATE 28000)', async () => {
  expect((await h.http.get('/ready')).status).toBe(200); // a pooled connection, logged in as the role
  expect((await h.http.get('/api/v1/mcp?search=before')).status).toBe(200);

  await asAdmin(databaseUrl, `alter role "${role}" nologin`);
  await asAdmin(databaseUrl, `select pg_terminate_backend(pid) from pg_stat_activity where usename = '${role}'`);

  // Different searches, so no answer comes from the read cache; the first may meet a terminated connection (57P01),
  // the later ones a refused login.
  for (const search of ['refused', 'still-refused', 'again-refused']) {
    const read = await h.http.get(`/api/v1/mcp?search=${search}`);
    expect(read.status).toBe(503);
    expect(read.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(JSON.parse(read.text).title).toBe('Service.Unavailable');
  }
  const direct = new pg.Client({
    connectionString: Object.assign(new URL(databaseUrl), { username: role }).toString(),
  });
  await expect(direct.connect()).rejects.toMatchObject({ code: '28000' });
  const ready = await h.http.get('/ready');
  expect(ready.status).toBe(503);
  expect(ready.body.checks.postgres).toBe('down');
});
