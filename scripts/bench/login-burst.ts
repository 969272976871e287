// Bursts of 16 concurrent logins against a real API process (api/server.ts as a child): how far its RSS rises
// (issue 24: under 300 MB), and what the bursts do to /v1/messages latency served by the same process (p50 during
// bursts vs without, in alternating phases). Also one burst of accounts still holding the old scrypt N=2^17 hashes,
// each verified at 128 MiB and rewritten as argon2id: the cost of the transition. Settings the API reads
// (PASSWORD_HASH_THREADS, PASSWORD_HASH_QUEUE_LIMIT) pass through from the environment.
// Usage: tsx scripts/bench/login-burst.ts [messages per phase] [phases of each kind]
import { spawn } from 'node:child_process';
import { randomBytes, scryptSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inArray } from 'drizzle-orm';
import { request } from 'undici';
import { inheritedEnv } from '../../shared/config/index.js';
import { accounts } from '../../shared/db/schema/index.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createApiKey } from '../../shared/identity/api-keys.js';
import { encodeHash, MAX_KEY_MEMORY_BYTES } from '../../shared/identity/password-formats.js';
import { createOrganization } from '../../shared/organizations/organizations.js';
import { createProject } from '../../shared/organizations/projects.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { startSimulatedProvider } from '../simulated-provider/server.js';
import { median, openBenchContext, percentile } from './bench-context.js';
import { reportHeadline } from './headline.js';

const perPhase = Number(process.argv[2] ?? 150);
const phases = Number(process.argv[3] ?? 3);
const BURST = 16;
const MESSAGES_CONCURRENCY = 4;
const RSS_BUDGET_MB = 300;
const PASSWORD = 'a-bench-password-1';

const sim = await startSimulatedProvider({ apiKey: 'bench', chunkDelayMs: 0 });
const bench = await openBenchContext('loginburst', {
  UPSTREAM_MESSAGES_URL: sim.url,
  UPSTREAM_MESSAGES_KEY: 'bench',
  // Successes are never counted; wrong passwords are not sent here. High anyway, so no burst is ever limited.
  AUTH_FAILURES_PER_ACCOUNT: '1000000',
  AUTH_FAILURES_PER_ADDRESS: '1000000',
});
const { ctx } = bench;

const owner = await createAccount(ctx, { email: 'owner@bench.local', name: 'Owner', password: PASSWORD });
const org = await createOrganization(ctx, owner.id, { name: 'Bench org' });
const project = await createProject(ctx, org.id, owner.id, { name: 'Bench project' });
await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'bench' });
const { token } = await createApiKey(ctx, owner.id, { name: 'bench', projectId: project.id });
const current = await ctx.passwords.hash(PASSWORD);
const users = await Promise.all(
  Array.from({ length: BURST }, (_, i) =>
    createAccount(ctx, { email: `user-${i}@bench.local`, name: `User ${i}`, passwordHash: current }),
  ),
);
const salt = randomBytes(16);
const oldParams = { algorithm: 'scrypt' as const, N: 2 ** 17, r: 8, p: 1 };
const oldKey = scryptSync(PASSWORD, salt, 32, { ...oldParams, maxmem: MAX_KEY_MEMORY_BYTES });
const oldHash = encodeHash({ params: oldParams, salt, key: oldKey });
const oldUsers = await Promise.all(
  Array.from({ length: BURST }, (_, i) =>
    createAccount(ctx, { email: `old-${i}@bench.local`, name: `Old ${i}`, passwordHash: oldHash }),
  ),
);

const api = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
  env: inheritedEnv({ NODE_OPTIONS: '', ...bench.env, PORT: '0', LOG_LEVEL: 'info' }),
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise<number>((resolve, reject) => {
  let out = '';
  api.stdout.on('data', (chunk: Buffer) => {
    if (process.env.BENCH_API_LOG) process.stderr.write(chunk);
    out += chunk.toString();
    const found = /"port":(\d+)/.exec(out);
    if (found) resolve(Number(found[1]));
  });
  api.once('exit', (code) => reject(new Error(`the API exited with ${code} before listening:\n${out}`)));
});
const base = `http://127.0.0.1:${port}`;
// The API listens before its Redis connection is up: wait until it says it is ready.
for (let tries = 0; ; tries++) {
  const res = await request(`${base}/ready`).catch(() => undefined);
  await res?.body.dump();
  if (res?.statusCode === 200) break;
  if (tries > 200) throw new Error('the API was not ready within 10 s');
  await new Promise((r) => setTimeout(r, 50));
}

async function rssMb(): Promise<number> {
  const status = await readFile(`/proc/${api.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

const messageBody = JSON.stringify({
  model: 'claude-haiku-4-5',
  max_tokens: 64,
  messages: [{ role: 'user', content: 'ping' }],
});

async function message(): Promise<number> {
  const started = performance.now();
  const res = await request(`${base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': token, 'anthropic-version': '2023-06-01' },
    body: messageBody,
  });
  if (res.statusCode !== 200) throw new Error(`/v1/messages answered ${res.statusCode}: ${await res.body.text()}`);
  await res.body.dump();
  return performance.now() - started;
}

async function messages(count: number): Promise<number[]> {
  const times: number[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: MESSAGES_CONCURRENCY }, async () => {
      while (sent < count) {
        sent++;
        times.push(await message());
      }
    }),
  );
  return times;
}

type Login = { ms: number; status: number };
async function login(email: string): Promise<Login> {
  const started = performance.now();
  const res = await request(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  await res.body.dump();
  return { ms: performance.now() - started, status: res.statusCode };
}

/** One burst of concurrent logins, with the API's RSS sampled every 5 ms while it lasts. */
async function burst(emails: string[]): Promise<{ logins: Login[]; before: number; peak: number }> {
  const before = await rssMb();
  let peak = before;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      peak = Math.max(peak, await rssMb());
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const logins = await Promise.all(emails.map(login));
  done = true;
  await sampler;
  return { logins, before, peak: Math.max(peak, await rssMb()) };
}

const emails = users.map((u) => u.email);
const quiet: number[] = [];
const loud: number[] = [];
const logins: Login[] = [];
let firstBurst: { before: number; peak: number } | undefined;
let maxRise = 0;
let bursts = 0;
try {
  await messages(50); // warm-up, no logins yet: the first burst below starts the hashing thread
  for (let phase = 0; phase < phases; phase++) {
    quiet.push(...(await messages(perPhase)));
    let running = true;
    const driver = (async () => {
      while (running) {
        const b = await burst(emails);
        firstBurst ??= b;
        maxRise = Math.max(maxRise, b.peak - b.before);
        logins.push(...b.logins);
        bursts++;
      }
    })();
    loud.push(...(await messages(perPhase)));
    running = false;
    await driver;
  }
  const old = await burst(oldUsers.map((u) => u.email));
  const rows = await ctx.db
    .select({ hash: accounts.passwordHash })
    .from(accounts)
    .where(
      inArray(
        accounts.id,
        oldUsers.map((u) => u.id),
      ),
    );
  const rewritten = rows.filter((r) => r.hash.startsWith('$argon2id$')).length;

  const refused = logins.filter((l) => l.status === 503).length;
  const failed = logins.filter((l) => l.status !== 200 && l.status !== 503).length;
  const times = logins.map((l) => l.ms);
  const [q50, l50] = [median(quiet), median(loud)];
  console.log(
    `API process (pid ${api.pid}); ${BURST} concurrent logins per burst, ${bursts} bursts in ${phases} phases`,
  );
  console.log(
    `  first burst (cold, threads start) : RSS ${firstBurst?.before.toFixed(0)} → ${firstBurst?.peak.toFixed(0)} MB`,
  );
  console.log(`  largest RSS rise in one burst     : ${maxRise.toFixed(1)} MB (budget ${RSS_BUDGET_MB} MB)`);
  console.log(
    `  logins p50 / p99                  : ${median(times).toFixed(0)} / ${percentile(times, 99).toFixed(0)} ms`,
  );
  console.log(`  logins refused (503) / failed     : ${refused} / ${failed} of ${logins.length}`);
  console.log(`  /v1/messages p50 without logins   : ${q50.toFixed(1)} ms (${quiet.length} requests)`);
  console.log(`  /v1/messages p50 during bursts    : ${l50.toFixed(1)} ms (${loud.length} requests)`);
  console.log(`  ratio                             : ${(l50 / q50).toFixed(3)} (goal ≤ 1.2)`);
  const oldStatuses = [...new Set(old.logins.map((l) => l.status))].join(', ');
  console.log(
    `  ${BURST} logins on old scrypt hashes   : RSS +${(old.peak - old.before).toFixed(1)} MB, p50 ${median(old.logins.map((l) => l.ms)).toFixed(0)} ms, statuses ${oldStatuses}, ${rewritten} rewritten as argon2id`,
  );
  reportHeadline({
    figure: `/v1/messages p50 during bursts of ${BURST} logins`,
    value: l50,
    baseline: q50,
    unit: 'ms',
    baselineName: 'no logins',
  });
  reportHeadline({
    figure: `API peak RSS in a burst of ${BURST} logins`,
    value: (firstBurst?.before ?? 0) + maxRise,
    baseline: firstBurst?.before ?? 0,
    unit: 'MB',
    baselineName: 'RSS before it',
  });
} finally {
  api.kill('SIGTERM');
  await new Promise((r) => api.once('exit', r));
  await bench.close();
  await sim.close();
}
