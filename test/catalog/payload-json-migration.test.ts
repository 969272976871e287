// Migration 0020 (payload and custom headers from jsonb to json) on a database that already holds them (its columns
// turned back to jsonb on a database of today, which the code of today can write): rows written
// before it read back with the same values, in the order jsonb gave them (shorter keys first); rows written after it
// keep the order they were written in; an organization made afterwards still gets `{}` as its custom headers.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { ensureDatabase, migrationsFolder, runMigrations } from '../../shared/db/migrate.js';
import { type Actors, createActors, createDraft, uniqueSlug } from '../support/catalog-factory.js';
import { createHarness, type Harness, testEnv } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { anOrganization, inOrg, type TestOrg } from '../support/org-fixtures.js';

const inputSchema = { type: 'object', properties: { zeta: { type: 'string' }, alpha: { type: 'number' }, mid: {} } };
const customHeaders = { 'X-Zone-Id': 'north', Authorization: 'Bearer abc', 'X-Team': 'billing' };
const alerts = '/api/organization/wallet/alerts';

let url: string;
const opened: Harness[] = [];

/** 0020's statements, as the release step runs them. */
async function migration0020(): Promise<string[]> {
  const text = await readFile(path.join(migrationsFolder, '0020_json_key_order.sql'), 'utf8');
  return text.split('--> statement-breakpoint').map((statement) => statement.trim());
}

async function open() {
  const h = await createHarness({ DATABASE_URL: url });
  opened.push(h);
  return h;
}

beforeAll(async () => {
  const target = new URL(testEnv().DATABASE_URL as string);
  target.pathname = `${target.pathname}_m${randomBytes(4).toString('hex')}`;
  url = target.toString();
  await ensureDatabase(url);
  // Every migration, then the two columns as they were before 0020 (jsonb): the code of today writes the rows a
  // database of before 0020 held (it needs the columns later migrations add, so it cannot run on 0019's schema).
  // 0027's generated columns read the payload and came after 0020: plain columns stand in for them until 0020 ran.
  await runMigrations(url);
  await sql(
    `ALTER TABLE "catalog_versions" DROP COLUMN "registry_connections", DROP COLUMN "registry_config_fields"`,
    `ALTER TABLE "catalog_versions" ADD COLUMN "registry_connections" json, ADD COLUMN "registry_config_fields" json`,
    `ALTER TABLE "catalog_versions" ALTER COLUMN "payload" SET DATA TYPE jsonb USING "payload"::jsonb`,
    `ALTER TABLE "wallet_alert_settings" ALTER COLUMN "custom_headers" SET DATA TYPE jsonb USING "custom_headers"::jsonb`,
    `ALTER TABLE "wallet_alert_settings" ALTER COLUMN "custom_headers" SET DEFAULT '{}'::jsonb`,
  );
});
afterAll(async () => {
  for (const h of opened) await h.close();
});

async function sql(...statements: string[]) {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    for (const statement of statements) await pool.query(statement);
  } finally {
    await pool.end();
  }
}

const draftVersion = async (h: Harness, a: Actors, id: string) =>
  (await h.http.get(`/api/v1/publisher/mcp/${id}`).set(bearer(a.publisher.session)).expect(200)).body.versions[0];
const headersOf = async (h: Harness, org: TestOrg) =>
  (await h.http.get(alerts).set(inOrg(org.admin, org.id)).expect(200)).body.data.customHeaders;

describe('migration 0020', () => {
  it('keeps what was stored, in jsonb’s order, and what is written afterwards in its own', async () => {
    const before = await open();
    const a = await createActors(before);
    const tools = [{ name: 'spell', inputSchema }];
    const draft = await createDraft(before, a, 'mcp', { slug: uniqueSlug('letters'), version: { tools } });
    const org = await anOrganization(before);
    await before.http.put(alerts).set(inOrg(org.admin, org.id)).send({ customHeaders }).expect(200);
    const jsonbOrder = ['mid', 'zeta', 'alpha'];
    const stored = await draftVersion(before, a, draft.id);
    expect(Object.keys(stored.tools[0].inputSchema.properties)).toEqual(jsonbOrder);

    await sql(
      `ALTER TABLE "catalog_versions" DROP COLUMN "registry_connections", DROP COLUMN "registry_config_fields"`,
      ...(await migration0020()),
      await readFile(path.join(migrationsFolder, '0027_registry_payload_parts.sql'), 'utf8'),
    );

    const after = await open();
    const read = await draftVersion(after, a, draft.id);
    expect(read.tools).toEqual(tools);
    expect(JSON.stringify(read)).toBe(JSON.stringify(stored));
    expect(await headersOf(after, org)).toEqual(customHeaders);
    expect(Object.keys(await headersOf(after, org))).toEqual(['X-Team', 'X-Zone-Id', 'Authorization']);

    await after.http
      .put(`/api/v1/publisher/mcp/${draft.id}/draft`)
      .set(bearer(a.publisher.session))
      .send({ version: { tools } })
      .expect(200);
    expect(JSON.stringify((await draftVersion(after, a, draft.id)).tools)).toBe(JSON.stringify(tools));
    await after.http.put(alerts).set(inOrg(org.admin, org.id)).send({ customHeaders }).expect(200);
    expect(Object.keys(await headersOf(after, org))).toEqual(Object.keys(customHeaders));
    expect(await headersOf(after, await anOrganization(after))).toEqual({});
  });
});
