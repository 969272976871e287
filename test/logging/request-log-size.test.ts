// Each request writes one log line naming its path, which the caller chooses: a path of 16,000 backslashes (what
// Node's 16 KiB header limit lets through) made a 32 KB line, JSON doubling each backslash, so one request line
// without any account wrote twice its own size into the logs, past the 16 KiB at which Docker's log driver splits a
// line (security review round 7, #88). The logged path is cut to its first 1,024 characters and says how long it was.
import net from 'node:net';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { freePort } from '../support/loopback-ports.js';

let h: Harness;
let api: WorkerProcess;
let port: number;

beforeAll(async () => {
  h = await createHarness();
  port = await freePort();
  api = await startProcess(h.env, {
    script: 'api/server.ts',
    readyLine: /API listening/,
    extraEnv: { PORT: String(port) },
  });
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await h?.close();
});

/** Sends one raw request line on its own socket and resolves with the answer's status line. */
function rawGet(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

it('logs a request with a 16,000-character path in a line of a few KB, saying how long the path was', async () => {
  const marker = 'logsize-marker';
  expect(await rawGet(`/${marker}/${'\\'.repeat(16_000)}`)).toMatch(/^HTTP\/1\.1 404/);
  const line = await waitUntil(async () =>
    api.logs
      .join('')
      .split('\n')
      .find((l) => l.includes(marker)),
  );
  expect(line.length).toBeLessThan(4_096);
  expect(JSON.parse(line)).toMatchObject({ msg: 'request', status: 404, pathLength: 16_016 });
});

// An invite token in the path joins an organization (perhaps as Admin); the database keeps only its keyed hash, and
// the request log kept it in clear (security review #111). Any letter case, as the router matches any.
it('logs invite and join paths with the token replaced by [redacted]', async () => {
  const token = 'invsecret0123456789abcdefghijklmnopqrstu';
  const paths = [`/api/organization/invites/${token}`, `/API/Organization/Invites/${token}/accept`, `/join/${token}`];
  for (const path of paths) expect(await rawGet(path)).toMatch(/^HTTP\/1\.1 \d{3}/);
  const lines = await waitUntil(async () => {
    const found = api.logs
      .join('')
      .split('\n')
      .filter((l) => l.includes('[redacted]'));
    return found.length >= paths.length ? found : undefined;
  });
  expect(lines.map((l) => JSON.parse(l).path).sort()).toEqual([
    '/API/Organization/Invites/[redacted]/accept',
    '/api/organization/invites/[redacted]',
    '/join/[redacted]',
  ]);
  expect(api.logs.join('')).not.toContain(token);
});
