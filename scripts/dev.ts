// `npm start`: one supervised command for development. Makes sure PostgreSQL and Redis answer, migrates, seeds,
// builds the web console when its build is missing or stale, starts the simulated provider on a free loopback
// port, then runs the API (which serves the console) and all workers until Ctrl-C.
import '../shared/node-runtime.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { listenFailureMessage } from '../api/listen-failure.js';
import { adminPasswordHint } from '../shared/config/development-defaults.js';
import { inheritedEnv, loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { ensureDatabase, runMigrations } from '../shared/db/migrate.js';
import { adminHasPassword } from '../shared/identity/admin-bootstrap.js';
import { ensureConsoleBuilt } from './console-build.js';
import { portRefusal } from './port-refusal.js';
import { runSeed } from './seed/seed-steps.js';
import { ensureServices } from './services.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (msg: string) => process.stdout.write(`[ockhub] ${msg}\n`);

const config = loadConfigOrExit();
// Checked before anything is written: a second checkout started on the first one's port would otherwise migrate and
// seed the first one's database with its own code before its API found the port taken.
const portTaken = await portRefusal(config.PORT);
if (portTaken) {
  process.stderr.write(`${listenFailureMessage(portTaken, config.PORT)}\n`);
  process.exit(1);
}
await ensureServices(config);
await ensureDatabase(config.DATABASE_URL);
await runMigrations(config.DATABASE_URL);
say('database migrated');
let adminPasswordIsCurrent = true;
{
  const ctx = createAppContext(config, 'worker', 'seed');
  for (const note of await runSeed(ctx)) say(note);
  adminPasswordIsCurrent = await adminHasPassword(ctx, config.ADMIN_PASSWORD);
  await ctx.close();
}

await ensureConsoleBuilt(say);

const children: ChildProcess[] = [];
let stopping = false;

// Readable log lines for a person at a terminal; JSON when the output goes to a file or a log shipper.
const logFormat = process.env.LOG_FORMAT || (process.stdout.isTTY ? 'pretty' : 'json');

function run(name: string, script: string, env: Record<string, string>, readyLine?: RegExp): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    // The NODE_ENV this supervisor validated: building the console (Vite) sets NODE_ENV=production in this process
    // when it was unset, and a fresh clone's API and workers must not inherit that.
    env: inheritedEnv({ NODE_ENV: config.NODE_ENV, LOG_FORMAT: logFormat, ...env }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    say(`${name} exited (${signal ?? code}); stopping everything`);
    void shutdown(1);
  });
  return new Promise((resolve) => {
    let resolved = !readyLine;
    if (!readyLine) resolve('');
    child.stdout?.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      process.stdout.write(text);
      const match = readyLine && !resolved ? text.match(readyLine) : null;
      if (match) {
        resolved = true;
        resolve(match[1] ?? '');
      }
    });
  });
}

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  // The last line a person sees: every process it started has exited.
  say('stopped: the API, the workers and the simulated provider have exited');
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

const upstream: Record<string, string> = {};
const simulator = 'scripts/simulated-provider/server.ts';
if (existsSync(path.join(root, simulator))) {
  const simUrl = await run(
    'simulated provider',
    simulator,
    { SIMULATED_PROVIDER_PORT: '0' },
    /listening on (http:\/\/\S+)/,
  );
  for (const kind of ['MESSAGES', 'VIDEO', 'SEARCH'] as const) {
    if (config[`UPSTREAM_${kind}_URL`]) continue;
    upstream[`UPSTREAM_${kind}_URL`] = simUrl;
    // The simulator, like the real vendors, refuses calls without a key; any value does.
    upstream[`UPSTREAM_${kind}_KEY`] = 'simulated-provider-key';
  }
  say(`simulated provider at ${simUrl} serves every upstream that is not configured`);
}

await run('api', 'api/server.ts', upstream, /API listening/);
await run('worker', 'workers/main.ts', upstream, /worker ready/);
say(`ready: ${config.publicBaseUrl}  (health: ${config.publicBaseUrl}/health)`);
say(`console: ${config.publicBaseUrl}/  (sign in at ${config.publicBaseUrl}/sign-in)`);
say(`Admin: ${config.ADMIN_EMAIL} (${adminPasswordHint(config, adminPasswordIsCurrent)})`);
say(
  `API key: POST ${config.publicBaseUrl}/api/v1/auth/login {email, password} gives an accessToken; POST ` +
    `${config.publicBaseUrl}/api/v1/api-keys {name} with "Authorization: Bearer <accessToken>" answers the ock_ ` +
    'token once (or the console\'s API keys page; README "First API key")',
);
// The key above is the account's: the gateway refuses it (403), so say how to get the one it takes.
say(
  `Gateway key (/v1/**): POST ${config.publicBaseUrl}/api/projects/from-template {templateId, name} answers a ` +
    'project with its own key in apiKeys[0].token, and the Admin funds the wallet with POST ' +
    `${config.publicBaseUrl}/api/organization/wallet/recharge {amount} (README "First gateway calls")`,
);
