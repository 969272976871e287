// The Gateway page tells a person how to call the gateway with a key of the project: each snippet is taken from the
// page as shown and run as written (curl in bash, both SDKs' snippets in Node.js) against the real API, and the models
// table shows what the API lists, in the console's words.
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { recharge } from '../support/gateway.js';
import { repoRoot, waitUntil } from '../support/harness.js';
import { bearer, signInAdmin } from '../support/identity.js';
import { type ConsoleWorld, checkPage, openConsoleWorld, signIn } from './console-world.js';

const run = promisify(execFile);

let w: ConsoleWorld;
let admin: Page;
let projectId = '';
let projectKey = '';
let orgId = '';
let adminToken = '';

beforeAll(async () => {
  w = await openConsoleWorld();
  adminToken = (await signInAdmin(w.h)).token;
  orgId = (await w.h.http.get('/api/organizations').set(bearer(adminToken))).body.data[0].id;
  const made = await w.h.http
    .post('/api/projects')
    .set({ ...bearer(adminToken), 'x-organization-id': orgId })
    .send({ name: 'Connect project' });
  expect(made.status).toBe(201);
  projectId = made.body.data.id;
  const key = await w.h.http.post('/api/v1/api-keys').set(bearer(adminToken)).send({ name: 'snippets', projectId });
  expect(key.status).toBe(200);
  projectKey = key.body.token;
  await recharge(w.h, { id: orgId, admin: { session: adminToken } as never }, '5');
  admin = await w.newPage();
  await signIn(admin, w.admin.email, w.admin.password, `/gateway/${projectId}`);
});
afterAll(() => w?.close());

const panel = () => admin.getByRole('region', { name: 'Connect a client' });

/** The snippet the page shows for `client`, once its tab is chosen. */
async function snippetOf(client: string): Promise<string> {
  await panel().getByRole('tab', { name: client }).click();
  return (await panel().getByTestId('client-snippet').textContent()) ?? '';
}

/** Runs a Node.js snippet as a person would save and run it: an ES module beside the repository's node_modules. */
async function runNodeSnippet(text: string): Promise<string> {
  const dir = await mkdtemp(path.join(repoRoot, 'test-results', 'snippet-'));
  const file = path.join(dir, 'snippet.mjs');
  await writeFile(file, text);
  const { stdout } = await run(process.execPath, [file], { env: { ...process.env, OCKHUB_API_KEY: projectKey } });
  return stdout;
}

it('shows snippets for five clients, and curl and both SDKs answer as written, billed to the project', async () => {
  await admin.goto(`/gateway/${projectId}`);
  await panel().getByRole('tab', { name: 'curl' }).waitFor();
  await panel().getByLabel('Model').selectOption('claude-haiku-4-5');

  const curl = await snippetOf('curl');
  expect(curl).toContain(`curl -s ${w.baseUrl}/v1/messages`);
  const { stdout } = await run('bash', ['-c', curl], { env: { ...process.env, OCKHUB_API_KEY: projectKey } });
  expect(JSON.parse(stdout)).toMatchObject({ type: 'message', model: 'claude-haiku-4-5', role: 'assistant' });

  const anthropic = await runNodeSnippet(await snippetOf('Anthropic SDK'));
  expect(anthropic).toMatch(/type: 'text'/);
  const openai = await runNodeSnippet(await snippetOf('OpenAI SDK'));
  expect(openai.trim().length).toBeGreaterThan(0);

  // The three calls, each billed once to this project (the ledger worker writes them a moment later).
  const logged = await waitUntil(async () => {
    const res = await w.h.http
      .get(`/api/projects/${projectId}/requests`)
      .set({ ...bearer(adminToken), 'x-organization-id': orgId });
    return res.body.data.length >= 3 ? (res.body.data as { operation: string; model: string }[]) : undefined;
  });
  expect(logged.map((r) => `${r.operation} ${r.model}`).sort()).toEqual([
    'chat_completions claude-haiku-4-5',
    'messages claude-haiku-4-5',
    'messages claude-haiku-4-5',
  ]);

  // Claude Code and Codex: the configuration docs/gateway.md checked with the real CLIs, for this origin and model.
  expect(await snippetOf('Claude Code')).toBe(
    [
      `export ANTHROPIC_BASE_URL=${w.baseUrl}`,
      'export ANTHROPIC_API_KEY=$OCKHUB_API_KEY',
      'export ANTHROPIC_MODEL=claude-haiku-4-5',
      'export ANTHROPIC_DEFAULT_HAIKU_MODEL=claude-haiku-4-5',
      'claude',
    ].join('\n'),
  );
  const codex = await snippetOf('Codex CLI');
  expect(codex).toContain('model = "claude-haiku-4-5"');
  expect(codex).toContain(`base_url = "${w.baseUrl}/v1"`);
  expect(codex).toContain('wire_api = "responses"');
});

it("lists the models the project's keys may call with their prices, as the API does", async () => {
  const listed = await w.h.http
    .get(`/api/projects/${projectId}/models`)
    .set({ ...bearer(adminToken), 'x-organization-id': orgId });
  await admin.goto(`/gateway/${projectId}`);
  const table = admin.getByRole('table', { name: 'Models and prices' });
  await table.waitFor();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  expect(rows.map((r) => r[0])).toEqual(
    listed.body.data.map((m: { id: string; displayName: string }) => `${m.displayName}${m.id}`),
  );
  const row = (id: string) => rows.find((r) => r[0]?.endsWith(id)) as string[];
  expect(row('claude-sonnet-5').slice(1)).toEqual([
    'text',
    '3.00 USD in, 15.00 USD out per 1M tokens' + 'plus web search tool 0.01 USD per search',
    '0.30 USD read, 3.75 USD write',
    '128,000',
  ]);
  expect(row('sora-2').slice(1)).toEqual(['video', '0.10 USD per second', '—', '—']);
  expect(row('web-search').slice(1)).toEqual(['web search', '0.001 USD per web search or web fetch request', '—', '—']);
  await checkPage(admin, 'gateway-connect');
});
