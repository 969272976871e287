// An API process told to stop (a deploy, a scale-down) while a paid stream is still open: it waits API_SHUTDOWN_MS,
// then cuts the stream and settles it for what was sent before it exits 0. It used to exit 1 at its deadline over
// the open request, leaving the hold to expire: the tokens the client had received were never charged.
import type http from 'node:http';
import { type GatewayWorld, openGatewayWorld, requestLogsOf, walletOf } from '../support/gateway.js';
import { startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { freePort } from '../support/loopback-ports.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
const TEXT = 'x'.repeat(3_000); // a cut stream is billed a token per 3 UTF-8 bytes it delivered: 1,000 tokens

let w: GatewayWorld;
let upstream: LoopbackServer;
let api: WorkerProcess | undefined;
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(
      sse('message_start', {
        message: {
          id: 'msg_cut',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5',
          content: [],
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      }) +
        sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
        sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: TEXT } }),
    );
    held.push(res); // never finished: only the shutdown ends this answer
  });
  w = await openGatewayWorld({ balance: '5', env: { UPSTREAM_MESSAGES_URL: upstream.origin } });
});
afterAll(async () => {
  await api?.stop('SIGKILL');
  for (const res of held) res.destroy();
  await w?.close();
  await upstream?.close();
});

it('cuts a stream still open at API_SHUTDOWN_MS, settles it for what it sent, and exits 0', async () => {
  const port = await freePort();
  api = await startProcess(w.h.env, {
    script: 'api/server.ts',
    readyLine: /API listening/,
    extraEnv: { PORT: String(port), API_SHUTDOWN_MS: '300' },
  });
  const started = api;
  const stream = () =>
    fetch(`http://127.0.0.1:${port}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': w.key, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'claude-sonnet-5', max_tokens: 50_000, stream: true, messages: [] }),
    });
  // A 503 is the answer a new process may give on a loaded machine (a Redis or PostgreSQL step past its time limit
  // while the process still compiles); a client retries it, and so does this test, twice.
  let res = await stream();
  for (let retry = 0; res.status === 503 && retry < 2; retry++) {
    await res.text();
    res = await stream();
  }
  if (res.status !== 200)
    throw new Error(`answered ${res.status} ${await res.text()}\n${started.logs.join('').slice(-4000)}`);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes(TEXT)) seen += decoder.decode((await reader.read()).value, { stream: true });
  expect((await walletOf(w.h, w.org)).frozenAmount).toBeGreaterThan(0.5); // 50,000 output tokens at $15/MTok held

  const exited = api.stop('SIGTERM');
  const cut = await reader.read().then(
    (chunk) => (chunk.done ? 'ended' : 'more'),
    () => 'cut',
  );
  expect(cut).toBe('cut');
  expect(await exited).toBe(0);
  // 'exit' can come before the last of the child's output is read: wait for the line, then check it is the last.
  await waitUntil(async () => started.logs.join('').includes('API stopped:'), 10_000, 20);
  expect(started.logs.join('').trim().split('\n').at(-1)).toMatch(
    /"signal":"SIGTERM".*"msg":"API stopped: requests finished/,
  );

  const [log] = await requestLogsOf(w.h, w.projectId);
  expect(log).toMatchObject({ status: 'client_closed', inputTokens: 10, outputTokens: 1_000 });
  const wallet = await walletOf(w.h, w.org);
  expect(wallet.frozenAmount).toBe(0);
  expect(wallet.balance).toBeCloseTo(5 - 0.01503, 6); // 10 input at $3/MTok, 1,000 output at $15/MTok
});
