// Bursts of 16 concurrent logins against a real API process (api/server.ts as a child): how far its RSS rises
// (issue 24: under 300 MB), and what the bursts do to /v1/messages latency served by the same process (p50 during
// bursts vs without, in alternating phases), at capacity (a closed loop) and below it (a fixed rate). Also one burst of accounts still holding the old scrypt N=2^17 hashes,
// each verified at 128 MiB and rewritten as argon2id: the cost of the transition. Settings the API reads
// (PASSWORD_HASH_THREADS, PASSWORD_HASH_QUEUE_LIMIT, PASSWORD_HASH_PRIORITY) pass through from the environment.
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
import { benchArgs } from './bench-args.js';
import { median, openBenchContext, percentile, postMessages } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [perPhase, phases] = benchArgs(import.meta.url, [
  ['messages-per-phase', 150],
  ['phases', 3],
]);
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

const api = spawn(
  process.execPath,
  [
    ...(process.env.LB_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.LB_PROF] : []),
    '--import',
    'tsx',
    'api/server.ts',
  ],
  {
    env: inheritedEnv({ NODE_OPTIONS: '', ...bench.env, PORT: '0', LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
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

/** One request; its latency counts from `since` (for the steady rate: when it was due, not when it left). */
async function message(since = performance.now()): Promise<number> {
  const res = await postMessages(base, token, messageBody, {});
  await res.body.dump();
  return performance.now() - since;
}

/** Closed loop: MESSAGES_CONCURRENCY requests always in flight, each sent when one returns (the API at capacity). */
async function closedLoop(count: number): Promise<number[]> {
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

/** Open loop: requests sent on a fixed schedule whatever the answers do (the API below capacity). */
async function steadyRate(count: number, perSecond: number): Promise<number[]> {
  const times: number[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(message(due).then((ms) => void times.push(ms)));
  }
  await Promise.all(pending);
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

// The API's RSS, read every 5 ms through both kinds of phase (reading it costs this process a little CPU, so the
// quiet phases pay it too, and the ratio below compares logins against none, not sampling against none).
let rssPeak = await rssMb();
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    rssPeak = Math.max(rssPeak, await rssMb());
    await new Promise((r) => setTimeout(r, 5));
  }
})();

/** One burst of concurrent logins, with the API's peak RSS while it lasts. */
async function burst(emails: string[]): Promise<{ logins: Login[]; before: number; peak: number }> {
  const before = await rssMb();
  rssPeak = before;
  const logins = await Promise.all(emails.map(login));
  return { logins, before, peak: Math.max(rssPeak, await rssMb()) };
}

const emails = users.map((u) => u.email);
const logins: Login[] = [];
let firstBurst: { before: number; peak: number } | undefined;
let maxRise = 0;
let bursts = 0;

type Phases = { quiet: number[]; loud: number[]; quietSeconds: number };
/** `phases` pairs of phases, each of `perPhase` requests: one without logins, one with bursts of them throughout. */
async function alternate(send: (count: number) => Promise<number[]>): Promise<Phases> {
  const result: Phases = { quiet: [], loud: [], quietSeconds: 0 };
  for (let phase = 0; phase < phases; phase++) {
    const started = performance.now();
    result.quiet.push(...(await send(perPhase)));
    result.quietSeconds += (performance.now() - started) / 1000;
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
    result.loud.push(...(await send(perPhase)));
    running = false;
    await driver;
  }
  return result;
}

try {
  await closedLoop(50); // warm-up, no logins yet: the first burst below starts the hashing thread
  const atCapacity = await alternate(closedLoop);
  // Below capacity: half the rate the API served in the closed loop's quiet phases.
  const rate = Math.round(atCapacity.quiet.length / atCapacity.quietSeconds / 2);
  const belowCapacity = await alternate((count) => steadyRate(count, rate));
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
  const ratioLine = (name: string, p: Phases) => {
    const [q50, l50] = [median(p.quiet), median(p.loud)];
    console.log(`  /v1/messages p50 ${name}: ${q50.toFixed(1)} ms without logins, ${l50.toFixed(1)} ms during bursts`);
    console.log(`    ratio                           : ${(l50 / q50).toFixed(3)} (goal ≤ 1.2)`);
  };
  console.log(
    `API process (pid ${api.pid}); ${BURST} concurrent logins per burst, ${bursts} bursts in ${2 * phases} phases`,
  );
  console.log(
    `  first burst (cold, threads start) : RSS ${firstBurst?.before.toFixed(0)} → ${firstBurst?.peak.toFixed(0)} MB`,
  );
  console.log(`  largest RSS rise in one burst     : ${maxRise.toFixed(1)} MB (budget ${RSS_BUDGET_MB} MB)`);
  console.log(
    `  logins p50 / p99                  : ${median(times).toFixed(0)} / ${percentile(times, 99).toFixed(0)} ms`,
  );
  console.log(`  logins refused (503) / failed     : ${refused} / ${failed} of ${logins.length}`);
  ratioLine(`at capacity (${MESSAGES_CONCURRENCY} in flight)`, atCapacity);
  ratioLine(`below capacity (${rate}/s, half of it)`, belowCapacity);
  const oldStatuses = [...new Set(old.logins.map((l) => l.status))].join(', ');
  console.log(
    `  ${BURST} logins on old scrypt hashes   : RSS +${(old.peak - old.before).toFixed(1)} MB, p50 ${median(old.logins.map((l) => l.ms)).toFixed(0)} ms, statuses ${oldStatuses}, ${rewritten} rewritten as argon2id`,
  );
  reportHeadline({
    figure: `/v1/messages p50 during bursts of ${BURST} logins, at capacity`,
    value: median(atCapacity.loud),
    baseline: median(atCapacity.quiet),
    unit: 'ms',
    baselineName: 'no logins',
  });
  reportHeadline({
    figure: `/v1/messages p50 during bursts of ${BURST} logins, at half capacity`,
    value: median(belowCapacity.loud),
    baseline: median(belowCapacity.quiet),
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
  sampling = false;
  await sampler;
  api.kill('SIGTERM');
  await new Promise((r) => api.once('exit', r));
  await bench.close();
  await sim.close();
}
