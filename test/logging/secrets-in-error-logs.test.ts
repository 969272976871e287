// A request that fails in PostgreSQL is logged by the API's error handler with the driver's error, whose message
// (drizzle's "Failed query: … params: …") carried every bound value of the query: a webhook's custom Authorization
// header and the whsec_ signing secret reached the API's log (found by a security review). The error serializer
// (shared/logging/error-serializer.ts) keeps the SQL and drops the values. The failure is made by a trigger (a
// deadlock, a statement timeout or a lost connection do the same).
import pg from 'pg';
import {
  createHarness,
  freshTestDatabase,
  type Harness,
  startProcess,
  type WorkerProcess,
  waitUntil,
} from '../support/harness.js';
import { freePort } from '../support/loopback-ports.js';
import { anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';

const SECRET_HEADER = 'Bearer hook-credential-7f3a9c1e5b2d4f60';

let h: Harness;
let api: WorkerProcess;
let port: number;
let org: TestOrg;

beforeAll(async () => {
  const databaseUrl = await freshTestDatabase();
  h = await createHarness({ DATABASE_URL: databaseUrl });
  org = await anOrganization(h);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`
    create function failing_update() returns trigger language plpgsql as $$
    begin raise exception 'canceling statement due to statement timeout' using errcode = '57014'; end $$;
    create trigger failing_update before update on wallet_alert_settings for each row execute function failing_update();
  `);
  await db.end();
  port = await freePort();
  api = await startProcess(h.env, {
    script: 'api/server.ts',
    readyLine: /API listening/,
    extraEnv: { PORT: String(port) },
  });
  // Until its Redis connection is ready the API answers 503: wait for an authenticated read to pass.
  await waitUntil(async () => {
    const r = await fetch(`http://127.0.0.1:${port}/api/organization/wallet`, { headers: inOrg(org.admin, org.id) });
    return r.status === 200;
  });
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await h?.close();
});

it('does not write a webhook custom Authorization header into the logs when saving the settings fails', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/api/organization/wallet/alerts`, {
    method: 'PUT',
    headers: { ...inOrg(org.admin, org.id), 'content-type': 'application/json' },
    body: JSON.stringify({ customHeaders: { Authorization: SECRET_HEADER } }),
  });
  const text = await res.text();
  expect(res.status).toBe(500);
  // The answer is generic (sound).
  expect(text).not.toContain('hook-credential');
  const logs = await waitUntil(async () => {
    const written = api.logs.join('');
    return written.includes('hook-credential') || written.includes('params: [redacted]') ? written : undefined;
  });
  expect(logs).toContain('Failed query: update');
  expect(logs).toContain('params: [redacted]');
  expect(logs).not.toContain('hook-credential-7f3a9c1e5b2d4f60');
});

it('does not write the new webhook signing secret into the logs when a rotation fails', async () => {
  const res = await fetch(`http://127.0.0.1:${port}/api/organization/wallet/alerts`, {
    method: 'PUT',
    headers: { ...inOrg(org.admin, org.id), 'content-type': 'application/json' },
    body: JSON.stringify({ rotateWebhookSecret: true }),
  });
  expect(res.status).toBe(500);
  const logs = await waitUntil(async () => {
    const written = api.logs.join('');
    return (written.match(/params: \[redacted\]/g) ?? []).length >= 2 || /whsec_/.test(written) ? written : undefined;
  });
  expect(logs).not.toMatch(/whsec_[A-Za-z0-9+/]{20,}/);
});
