// Peak memory of the largest multipart video create the API accepts: a 30 MB reference image as the
// `input_reference` file plus text fields up to the 48 MiB body bound, in a fresh API process per case whose peak RSS
// (VmHWM, reset through /proc/<pid>/clear_refs after a small warm-up create) is read after the case. Baseline in the same run:
// the same image sent as a JSON data URL. Also measured: 4 maximal creates at once, and the attack of issue 22
// (8 fields of 38 MB), now refused at 48 MiB. Usage: tsx scripts/bench/video-multipart-memory.ts [repeats]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'undici';
import { inheritedEnv } from '../../shared/config/index.js';
import { createAccount } from '../../shared/identity/accounts.js';
import { createApiKey } from '../../shared/identity/api-keys.js';
import { createOrganization } from '../../shared/organizations/organizations.js';
import { createProject } from '../../shared/organizations/projects.js';
import { recharge } from '../../shared/wallet/ledger.js';
import { freePort } from '../../test/support/loopback-ports.js';
import { benchArgs } from './bench-args.js';
import { median, openBenchContext } from './bench-context.js';
import { reportHeadline } from './headline.js';

const [repeats] = benchArgs(import.meta.url, [['repeats', 3]]);
const MiB = 1024 * 1024;
const IMAGE_BYTES = 30 * 1024 * 1024 - 1024;

const bench = await openBenchContext('videomem');
const { ctx } = bench;

type ApiProcess = { pid: number; base: string; stop(): Promise<void> };

/** A fresh API process per case, so one case's heap growth does not hide the next one's. */
async function startApi(): Promise<ApiProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    env: inheritedEnv({
      ...bench.env,
      NODE_OPTIONS: '',
      LOG_LEVEL: 'info',
      PORT: String(port),
      DATABASE_URL: ctx.config.DATABASE_URL,
      REDIS_URL: ctx.config.REDIS_URL,
    }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => /API listening/.test(chunk.toString()) && resolve());
    child.once('exit', (code) => reject(new Error(`API exited with ${code}`)));
  });
  return {
    pid: child.pid as number,
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

const account = await createAccount(ctx, { email: 'bench@bench.local', name: 'Bench', password: 'bench-password-1' });
const org = await createOrganization(ctx, account.id, { name: 'Bench org' });
const project = await createProject(ctx, org.id, account.id, { name: 'Bench project' });
await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'bench' });
const { token } = await createApiKey(ctx, account.id, { name: 'bench', projectId: project.id });

const status = (pid: number, field: string) =>
  Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1]) / 1024;

/** In a fresh API process, after a small warm-up create: how far its RSS peaks above where it was (MB). */
async function peakRise(send: (api: ApiProcess) => Promise<number[]>): Promise<{ rise: number; statuses: number[] }> {
  const api = await startApi();
  try {
    await post(api, multipart(fields), formType);
    writeFileSync(`/proc/${api.pid}/clear_refs`, '5');
    const before = status(api.pid, 'VmRSS');
    const statuses = await send(api);
    return { rise: status(api.pid, 'VmHWM') - before, statuses };
  } finally {
    await api.stop();
  }
}

const BOUNDARY = 'benchBoundary';
function multipart(fields: [string, string][], file?: { name: string; bytes: Buffer; type: string }): Buffer {
  const parts: Buffer[] = fields.map(([name, value]) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file) {
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.name}"; filename="ref.png"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

async function post(api: ApiProcess, body: Buffer, type: string): Promise<number> {
  const res = await request(`${api.base}/v1/videos`, {
    method: 'POST',
    headers: { 'content-type': type, authorization: `Bearer ${token}` },
    body,
  });
  await res.body.dump();
  return res.statusCode;
}

const image = Buffer.alloc(IMAGE_BYTES, 0x42);
const formType = `multipart/form-data; boundary=${BOUNDARY}`;
const fields: [string, string][] = [
  ['model', 'sora-2'],
  ['prompt', 'A lighthouse at dusk'],
];
const fileOnly = multipart(fields, { name: 'input_reference', bytes: image, type: 'image/png' });
// Ignored text fields fill the body up to (just under) the 48 MiB bound.
const filler = 48 * MiB - fileOnly.length - 4096;
const maximal = multipart([...fields, ['padding', 'p'.repeat(filler)]], {
  name: 'input_reference',
  bytes: image,
  type: 'image/png',
});
const json = Buffer.from(
  JSON.stringify({
    model: 'sora-2',
    prompt: 'A lighthouse at dusk',
    input_reference: `data:image/png;base64,${image.toString('base64')}`,
  }),
);
// The same body with a model that does not exist: read and turned into a data URL, then refused before any task.
const readOnly = multipart([['model', 'no-such-model'], ...fields.slice(1), ['padding', 'p'.repeat(filler)]], {
  name: 'input_reference',
  bytes: image,
  type: 'image/png',
});
const attack = multipart(Array.from({ length: 8 }, (_, i) => [`f${i}`, 'a'.repeat(38 * MiB)] as [string, string]));

const cases: [string, (api: ApiProcess) => Promise<number[]>][] = [
  ['JSON create, 30 MB image as a data URL (baseline)', async (api) => [await post(api, json, 'application/json')]],
  ['multipart create, 30 MB file + fields to 48 MiB', async (api) => [await post(api, maximal, formType)]],
  ['the same body read, then refused (unknown model)', async (api) => [await post(api, readOnly, formType)]],
  [
    '4 maximal multipart creates at once',
    (api) => Promise.all(Array.from({ length: 4 }, () => post(api, maximal, formType))),
  ],
  ['issue 22 attack: 8 fields of 38 MB (refused)', async (api) => [await post(api, attack, formType)]],
];
const rises = new Map<string, number[]>();
try {
  console.log(
    `maximal multipart body: ${(maximal.length / MiB).toFixed(1)} MiB; JSON body ${(json.length / MiB).toFixed(1)} MiB`,
  );
  for (let r = 0; r < repeats; r++) {
    for (const [name, send] of cases) {
      const { rise, statuses } = await peakRise(send);
      rises.set(name, [...(rises.get(name) ?? []), rise]);
      console.log(`${name}: peak RSS +${rise.toFixed(0)} MB (answers ${statuses.join(', ')})`);
    }
  }
  for (const [name] of cases) console.log(`median ${name}: +${median(rises.get(name) ?? []).toFixed(0)} MB`);
  reportHeadline({
    figure: 'peak RSS rise of a maximal multipart video create',
    value: median(rises.get(cases[1]?.[0] as string) ?? []),
    baseline: median(rises.get(cases[0]?.[0] as string) ?? []),
    unit: 'MB',
    baselineName: 'the same image as a JSON data URL',
  });
} finally {
  await bench.close();
}
