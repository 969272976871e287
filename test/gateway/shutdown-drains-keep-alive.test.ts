// An API process told to stop while keep-alive connections are open (a deploy behind a load balancer that reuses its
// connections): from SIGTERM on, /ready answers 503 and every answer says `Connection: close`, an idle connection is
// closed at once, the answers in flight (a plain call and a stream) finish and close their connections, and the
// process exits as soon as the last one ends, never reaching its API_SHUTDOWN_MS. Before, a stopping process served
// whatever its open connections sent (/ready 200 included) with keep-alive, and each stop ran until the cut.
import type http from 'node:http';
import net from 'node:net';
import { Client } from 'undici';
import { type GatewayWorld, openGatewayWorld, requestLogsOf, walletOf } from '../support/gateway.js';
import { startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { freePort } from '../support/loopback-ports.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const sse = (event: string, data: object) => `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
const usage = { input_tokens: 10, output_tokens: 20 };

let w: GatewayWorld;
let upstream: LoopbackServer;
let api: WorkerProcess | undefined;
/** Upstream answers held open until the test lets them finish. */
const held: { stream: boolean; res: http.ServerResponse }[] = [];
const clients: Client[] = [];
let raw: net.Socket | undefined;

beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res, body) => {
    const stream = JSON.parse(body).stream === true;
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        sse('message_start', {
          message: { id: 'msg_s', type: 'message', role: 'assistant', model: 'claude-sonnet-5', content: [], usage },
        }) + sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      );
    }
    held.push({ stream, res });
  });
  w = await openGatewayWorld({ balance: '5', env: { UPSTREAM_MESSAGES_URL: upstream.origin } });
});
afterAll(async () => {
  raw?.destroy();
  await Promise.all(clients.map((c) => c.destroy()));
  await api?.stop('SIGKILL');
  for (const { res } of held) res.destroy();
  await w?.close();
  await upstream?.close();
});

/** Resolves when the client's connection is closed (by the server: the clients here never close their own). */
const disconnected = (client: Client) => new Promise<void>((resolve) => client.once('disconnect', () => resolve()));

/** Finishes the held upstream answers: the stream with its last events, the plain call with its whole message. */
function releaseUpstream() {
  for (const { stream, res } of held) {
    if (stream) {
      res.end(
        sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'streamed' } }) +
          sse('content_block_stop', { index: 0 }) +
          sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 20 } }) +
          sse('message_stop', {}),
      );
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'msg_p',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-5',
          content: [{ type: 'text', text: 'plain' }],
          stop_reason: 'end_turn',
          usage,
        }),
      );
    }
  }
}

/** The first HTTP/1.1 answer read from a raw socket (its head and a Content-Length body), and when the socket closes. */
function rawAnswerOf(socket: net.Socket): { answer: Promise<string>; closed: Promise<void> } {
  let text = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? Number.NaN);
      if (headEnd >= 0 && text.length >= headEnd + 4 + length) resolve(text);
    });
  });
  return { answer, closed: new Promise((resolve) => socket.once('close', () => resolve())) };
}

/** A spawned API (tsx compiles it), three clients and a drain: seconds on a quiet machine; past jest's 60 s default once
 * on a machine at load average 16 (a CI run beside two helpers' suites). A budget, not a timed assertion. */
const SPAWNED_API_BUDGET_MS = 180_000;

it(
  'answers /ready 503 and Connection: close from SIGTERM on, lets the answers in flight finish, and exits once they have',
  async () => {
    const port = await freePort();
    api = await startProcess(w.h.env, {
      script: 'api/server.ts',
      readyLine: /API listening/,
      // Far beyond this test's own work: a process that reaches it cuts its requests (a line this test looks for).
      extraEnv: { PORT: String(port), API_SHUTDOWN_MS: '30000' },
    });
    const started = api;
    const origin = `http://127.0.0.1:${port}`;
    const client = () => {
      const c = new Client(origin, { keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 });
      clients.push(c);
      return c;
    };
    const messages = (c: Client, stream: boolean) =>
      c.request({
        method: 'POST',
        path: '/v1/messages',
        headers: { 'x-api-key': w.key, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-sonnet-5', max_tokens: 1_000, stream, messages: [] }),
      });

    // A stream whose headers and first events are out.
    const streamClient = client();
    let streamed = await messages(streamClient, true);
    // A 503 is the answer a new process may give on a loaded machine while it still compiles: retried, as a client would.
    for (let retry = 0; streamed.statusCode === 503 && retry < 2; retry++) {
      await streamed.body.text();
      streamed = await messages(streamClient, true);
    }
    if (streamed.statusCode !== 200)
      throw new Error(`stream answered ${streamed.statusCode}: ${started.logs.join('')}`);
    expect(streamed.headers.connection).toBe('keep-alive');
    const streamBody = streamed.body.text();
    const streamClosed = disconnected(streamClient);

    // A plain call waiting on its upstream: nothing of its answer is out yet.
    const plainClient = client();
    const plainClosed = disconnected(plainClient);
    const plain = messages(plainClient, false);
    await waitUntil(async () => held.some((h) => !h.stream), 10_000, 20);

    // A request arriving as the stop comes: its first bytes are in (a round trip on another connection after them
    // makes sure the process has read them), its end comes after SIGTERM.
    raw = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => raw?.once('connect', () => resolve()));
    const rawAnswer = rawAnswerOf(raw);
    await new Promise<void>((resolve) =>
      raw?.write(`GET /ready HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, () => resolve()),
    );

    // An idle keep-alive connection.
    const idleClient = client();
    const idle = await idleClient.request({ method: 'GET', path: '/health' });
    expect(await idle.body.text()).toBe('ok');
    expect(idle.headers.connection).toBe('keep-alive');
    const idleClosed = disconnected(idleClient);

    const exited = started.stop('SIGTERM');
    await waitUntil(async () => started.logs.join('').includes('API stopping'), 10_000, 20);
    await idleClosed; // closed at once: its next request would otherwise reach a stopping process

    raw.write('\r\n');
    const answer = await rawAnswer.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain('"status":"stopping"');
    await rawAnswer.closed; // by the server, after this answer

    releaseUpstream();
    const plainAnswer = await plain;
    expect(plainAnswer.statusCode).toBe(200);
    expect(plainAnswer.headers.connection).toBe('close');
    expect(JSON.parse(await plainAnswer.body.text()).content).toEqual([{ type: 'text', text: 'plain' }]);
    await plainClosed;

    // The stream's headers were out before the stop: it finishes whole, then its connection closes.
    expect(await streamBody).toContain('event: message_stop');
    await streamClosed;

    expect(await exited).toBe(0);
    await waitUntil(async () => started.logs.join('').includes('API stopped:'), 10_000, 20);
    const logs = started.logs.join('');
    expect(logs).not.toContain('cutting the requests still in flight');
    expect(logs.trim().split('\n').at(-1)).toMatch(/"signal":"SIGTERM".*"msg":"API stopped: requests finished/);

    // Both were charged in full, as any finished request.
    const logsOfProject = await requestLogsOf(w.h, w.projectId);
    expect(logsOfProject.map((l) => l.status).sort()).toEqual(['succeeded', 'succeeded']);
    expect((await walletOf(w.h, w.org)).frozenAmount).toBe(0);
  },
  SPAWNED_API_BUDGET_MS,
);
