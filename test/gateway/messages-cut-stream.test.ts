// A stream the client cuts before the upstream's final `message_delta` keeps everything it read; what it is billed
// must not depend on text the caller chose. Found by a security review: the estimate was ~4 characters per output
// token (a quarter of the real figure for CJK text) and nothing for the server tools the stream showed.
import type http from 'node:http';
import { type GatewayWorld, openGatewayWorld, requestLogsOf } from '../support/gateway.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { live } from '../support/wallet-spend.js';

let w: GatewayWorld;
let upstream: LoopbackServer;
let baseURL: string;
const open: http.ServerResponse[] = [];
const closers: (() => Promise<unknown>)[] = [];

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const CJK = 'あ'.repeat(4000); // 4,000 characters, 12,000 UTF-8 bytes: at least ~4,000 tokens for any real tokenizer
// 40,000 bytes of English: about 10,000 tokens for a real tokenizer, estimated at 13,334 (a token per 3 bytes).
const ENGLISH = 'word '.repeat(8000);

/** An Anthropic-like upstream: streams a scenario, then keeps the stream open (the final usage would come later). */
function hostileUpstream(_req: http.IncomingMessage, res: http.ServerResponse, body: string) {
  const request = JSON.parse(body || '{}') as { messages?: { content?: unknown }[] };
  const prompt = JSON.stringify(request.messages ?? []);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const message = (usage: object) => ({
    type: 'message_start',
    message: {
      id: 'msg_x',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 20, output_tokens: 1, ...usage },
    },
  });
  res.write(sse('message_start', message({})));
  if (prompt.includes('[websearch]')) {
    // pass 1: the model calls web search; the server runs it and feeds ~40k tokens of results into pass 2
    res.write(
      sse('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} },
      }),
    );
    res.write(
      sse('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'input_json_delta', partial_json: '{"query":"q"}' },
      }),
    );
    res.write(sse('content_block_stop', { type: 'content_block_stop', index: 0 }));
    res.write(
      sse('content_block_start', {
        type: 'content_block_start',
        index: 1,
        content_block: {
          type: 'web_search_tool_result',
          tool_use_id: 'srvtoolu_1',
          content: Array.from({ length: 10 }, (_, i) => ({
            type: 'web_search_result',
            url: `https://example.com/${i}`,
            title: `r${i}`,
            encrypted_content: 'E'.repeat(16_000),
          })),
        },
      }),
    );
    res.write(sse('content_block_stop', { type: 'content_block_stop', index: 1 }));
    res.write(
      sse('content_block_start', {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'text', text: '' },
      }),
    );
    res.write(
      sse('content_block_delta', { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: 'ok' } }),
    );
  } else {
    const text = prompt.includes('[english]') ? ENGLISH : CJK;
    res.write(
      sse('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    );
    res.write(
      sse('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
    );
  }
  res.write(': all content sent\n\n');
  // The final message_delta (with the real cumulative usage) would follow; the client leaves before it.
  open.push(res);
}

beforeAll(async () => {
  upstream = await startLoopbackServer(hostileUpstream);
  closers.push(() => upstream.close());
  w = await openGatewayWorld({ balance: '50', env: { UPSTREAM_MESSAGES_URL: upstream.origin } });
  closers.push(() => w.close());
  const server = w.h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  baseURL = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  closers.unshift(() => new Promise((r) => server.close(() => r(undefined))));
});
afterAll(async () => {
  for (const res of open) res.destroy();
  for (const close of closers) await close();
});

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Streams a request, reads until the upstream sent everything but the final usage, then aborts; `whileOpen` runs
 * before the abort, while the request still holds its reservation.
 */
async function streamAndCut(body: object, whileOpen?: () => Promise<void>): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(`${baseURL}/v1/messages`, {
    method: 'POST',
    signal: controller.signal,
    headers: { 'x-api-key': w.key, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'claude-sonnet-5', stream: true, ...body }),
  });
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes('all content sent')) seen += decoder.decode((await reader.read()).value, { stream: true });
  await whileOpen?.();
  controller.abort();
  return seen;
}

describe('a stream cut by the client before the final usage', () => {
  it('bills CJK output at no fewer tokens than characters received (not ~4 characters per token)', async () => {
    const seen = await streamAndCut({
      max_tokens: 8000,
      messages: [{ role: 'user', content: 'write 4000 hiragana' }],
    });
    expect(seen).toContain(CJK); // the client got the whole answer
    const log = await waitFor(async () =>
      (await requestLogsOf(w.h, w.projectId)).find((l) => l.status === 'client_closed'),
    );
    // Once: outputTokens = ceil(4000 / 4) = 1000, a quarter of what the upstream bills the operator.
    expect(log.outputTokens).toBeGreaterThanOrEqual(CJK.length);
  });

  // The estimate of English text (4 bytes a token) passes max_tokens, the bound the hold was priced from: it was
  // charged above the hold, out of the available balance (a review finding).
  it('charges an estimate no more than the request held', async () => {
    let held = 0n;
    const seen = await streamAndCut(
      { max_tokens: 1000, messages: [{ role: 'user', content: '[english] write a long answer' }] },
      async () => {
        held = (await live(w.h.ctx, w.org.id)).frozenAmount;
      },
    );
    expect(seen).toContain(ENGLISH.slice(0, 100));
    expect(held).toBeGreaterThan(0n);
    const log = await waitFor(async () =>
      (await requestLogsOf(w.h, w.projectId)).find((l) => l.status === 'client_closed' && l.outputTokens > 13_000),
    );
    expect(log.costMicros).toBe(held);
  });

  it('bills the server-side web search the stream showed (and it ran), not only message_start figures', async () => {
    const seen = await streamAndCut({
      max_tokens: 1000,
      tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 1 }],
      messages: [{ role: 'user', content: '[websearch] look it up' }],
    });
    expect(seen).toContain('web_search_tool_result');
    const log = await waitFor(async () =>
      (await requestLogsOf(w.h, w.projectId)).find(
        (l) => l.status === 'client_closed' && l.inputTokens > 20, // the first test's stream read no tool results
      ),
    );
    // The registry prices a web search at $0.01 = 10,000 micro-USD; the search and the second pass's input (the
    // results, ~40k tokens) were incurred upstream. Once the cost is 20 input + ~4 output tokens: ~120 micro-USD.
    expect(log.costMicros).toBeGreaterThanOrEqual(10_000n);
    // The ten results (160,000 bytes of encrypted content) are input of the pass that read them: a token per 3 bytes.
    expect(log.inputTokens).toBeGreaterThan(20 + 160_000 / 3);
  });
});
