// The API's first line says where it can be reached: on a developer's machine its local address, behind a proxy
// (PUBLIC_BASE_URL set) its port and the public address (it named http://localhost:PORT there too, which nobody could use).
import { createHarness, type Harness, startProcess } from '../support/harness.js';
import { freePort } from '../support/loopback-ports.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 60_000);
afterAll(async () => h?.close());

async function listeningLine(extraEnv: Record<string, string>): Promise<string> {
  const port = await freePort();
  const api = await startProcess(h.env, {
    script: 'api/server.ts',
    readyLine: /API listening/,
    extraEnv: { PORT: String(port), ...extraEnv },
  });
  try {
    const line = api.logs
      .join('')
      .split('\n')
      .find((l) => l.includes('API listening'));
    const msg = (JSON.parse(line ?? '{}') as { msg?: string }).msg ?? '';
    return msg
      .replace(`:${port} `, ':PORT ')
      .replace(`port ${port},`, 'port PORT,')
      .replace(/\(Node\.js v[\d.]+\)$/, '(Node.js)');
  } finally {
    await api.stop();
  }
}

it('names the public address and the port when PUBLIC_BASE_URL is set', async () => {
  expect(await listeningLine({ PUBLIC_BASE_URL: 'https://hub.example.com/' })).toBe(
    'API listening on port PORT, public address https://hub.example.com (Node.js)',
  );
});

it('names the local address when it is not', async () => {
  expect(await listeningLine({ PUBLIC_BASE_URL: '' })).toBe('API listening on http://localhost:PORT (Node.js)');
});
