// SPEC section 5: `npm start` (scripts/dev.ts) on a fresh database migrates, seeds (the Admin, a default organization
// with the Admin as its Admin, the built-in templates, a demo catalog), starts the simulated provider on a free
// loopback port, runs the API and every worker, and prints the URL, the Admin e-mail and how to get a key.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { inheritedEnv } from '../../shared/config/index.js';
import { repoRoot, startProcess, type TestEnv, testEnv, type WorkerProcess, waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { freePort } from '../support/loopback-ports.js';

let dev: WorkerProcess;
let env: TestEnv;
let base: string;
const adminEmail = `start-admin-${randomBytes(4).toString('hex')}@test.ockhub.local`;
const adminPassword = 'start-test-admin-password';

beforeAll(async () => {
  // The console's build first (when stale), so the start below only checks it: building takes longer than starting.
  const build = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/console-build.ts', 'ensure'], {
    cwd: repoRoot,
    env: inheritedEnv({ NODE_OPTIONS: '' }),
    encoding: 'utf8',
    timeout: 240_000,
  });
  expect([build.status, build.stdout]).toEqual([0, expect.stringMatching(/web console (build is up to date|built)/)]);

  env = testEnv();
  const database = new URL(env.DATABASE_URL as string);
  database.pathname = `${database.pathname}_start_${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  base = `http://localhost:${port}`;
  dev = await startProcess(env, {
    script: 'scripts/dev.ts',
    readyLine: /\[ockhub\] Gateway key /,
    readyWithinMs: 120_000,
    extraEnv: {
      DATABASE_URL: database.toString(),
      PORT: String(port),
      ADMIN_EMAIL: adminEmail,
      ADMIN_PASSWORD: adminPassword,
      UPSTREAM_MESSAGES_URL: '',
      UPSTREAM_VIDEO_URL: '',
      UPSTREAM_SEARCH_URL: '',
    },
  });
}, 400_000);

// Stops it if a test failed before the last one did.
afterAll(() => dev?.stop('SIGTERM'));

type Named = { id: string; name: string; isSystem: boolean };
type Item = { slug: string; viewCount: number };

async function json<T>(path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });
  return { status: res.status, body: (await res.json()) as T };
}

async function signIn() {
  const login = await json<{ accessToken: string }>('/api/v1/auth/login', {
    method: 'POST',
    body: JSON.stringify({ email: adminEmail, password: adminPassword }),
  });
  expect(login.status).toBe(200);
  return bearer(login.body.accessToken);
}

const systemTemplates = async (admin: Record<string, string>) =>
  (await json<{ data: Named[] }>('/api/project-templates', { headers: admin })).body.data.filter((t) => t.isSystem);

it('prints the URL, the Admin e-mail, how to get a key and a gateway key, and where the simulated provider listens', () => {
  const lines = dev.logs.join('').split('\n');
  expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^\\[ockhub\\] ready: ${base} `)));
  expect(lines).toContainEqual(expect.stringContaining(`[ockhub] Admin: ${adminEmail}`));
  expect(lines).toContainEqual(
    expect.stringMatching(/^\[ockhub\] API key: POST .*\/api\/v1\/auth\/login .* POST .*\/api\/v1\/api-keys /),
  );
  expect(lines).toContainEqual(
    expect.stringMatching(
      /^\[ockhub\] Gateway key \(\/v1\/\*\*\): POST .*\/api\/projects\/from-template .*\/wallet\/recharge/,
    ),
  );
  expect(lines).toContainEqual(
    expect.stringMatching(/^\[ockhub\] simulated provider at http:\/\/127\.0\.0\.1:\d+ serves every upstream/),
  );
});

it('serves the seeded world: the Admin in the default organization, the built-in templates, a demo catalog', async () => {
  expect((await fetch(`${base}/health`)).status).toBe(200);
  const admin = await signIn();
  expect((await json('/api/v1/auth/me', { headers: admin })).body).toMatchObject({ email: adminEmail, isAdmin: true });
  const orgs = await json<{ data: unknown[] }>('/api/organizations', { headers: admin });
  expect(orgs.body.data).toEqual([expect.objectContaining({ name: 'Default organization', role: 'Admin' })]);
  expect((await systemTemplates(admin)).map((t) => t.name)).toEqual([
    'Starter',
    'Professional',
    'Enterprise',
    'Custom',
  ]);
  for (const type of ['mcp', 'skill', 'agent', 'soul']) {
    expect((await json<{ total: number }>(`/api/v1/${type}`)).body.total).toBeGreaterThan(0);
  }
});

it('runs the gateway against the simulated provider and the workers behind the API', async () => {
  const admin = await signIn();
  const starter = (await systemTemplates(admin)).find((t) => t.name === 'Starter');
  const project = await json<{ data: { apiKeys: { token: string }[] } }>('/api/projects/from-template', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ templateId: starter?.id, name: 'Started' }),
  });
  expect(project.status).toBe(201);
  const key = bearer(project.body.data.apiKeys[0]?.token ?? '');
  const models = await json<{ data: { capabilities: string[] }[] }>('/v1/models', { headers: key });
  const capabilities = new Set(models.body.data.flatMap((m) => m.capabilities));
  expect(capabilities).toEqual(new Set(['messages', 'video', 'search']));
  // count_tokens costs nothing but needs a wallet with money (docs/gateway.md): the platform Admin recharges it.
  const recharged = await json('/api/organization/wallet/recharge', {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ amount: 1, description: 'npm start test' }),
  });
  expect(recharged.status).toBeLessThan(300);
  const counted = await json<{ input_tokens: number }>('/v1/messages/count_tokens', {
    method: 'POST',
    headers: key,
    body: JSON.stringify({ model: 'claude-sonnet-5', messages: [{ role: 'user', content: 'hello there' }] }),
  });
  expect([counted.status, typeof counted.body.input_tokens]).toEqual([200, 'number']);

  // The telemetry worker counts a view of a demo item.
  const item = (await json<{ items: Item[] }>('/api/v1/mcp?pageSize=1')).body.items[0] as Item;
  const viewsOf = async () => (await json<Item>(`/api/v1/mcp/${item.slug}`)).body.viewCount;
  const before = await viewsOf();
  const event = { itemType: 'mcp', slug: item.slug, eventType: 'view', clientId: randomBytes(8).toString('hex') };
  expect((await json('/api/v1/telemetry', { method: 'POST', body: JSON.stringify(event) })).status).toBe(200);
  await waitUntil(async () => (await viewsOf()) === before + 1, 30_000, 250);
});

// Ctrl-C (SIGINT to the terminal's process group; SIGTERM here) stops everything it started, and the last line says
// so (a new user's trial: the output ended on "worker stopping…", and nothing said everything had exited).
it('stops everything it started with exit code 0, and says so last', async () => {
  expect(await dev.stop('SIGTERM')).toBe(0);
  expect(dev.logs.join('')).toMatch(/\[ockhub\] stopped: the API, the workers and the simulated provider have exited/);
});
