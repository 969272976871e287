// The reservation of a Messages request counts an image block as a fixed bound, and until a security review it did so
// for any object with `type: "image"`, anywhere. On /v1/chat/completions a caller controls such objects through an
// assistant turn's tool_calls arguments (parsed JSON that becomes a tool_use block's input, which the upstream reads
// as text): a megabyte of prompt hidden there was reserved as one image, and a small wallet was admitted to requests
// it could not cover. Now only a content block is an image (shared/gateway/messages-estimate.ts).
import { answerMessage, aProjectWithKey, requestLogsOf, walletOf } from '../support/gateway.js';
import { createHarness, type Harness } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const PAD = 'lorem ipsum dolor sit amet '.repeat(40_000); // ~1.08 MB of prompt text (~270k tokens at 4 B/token)

/** A chat request carrying PAD in a tool call's arguments, inside an object of the given `type`. */
const chatWith = (type: string) => ({
  model: 'claude-haiku-4-5',
  max_tokens: 16,
  messages: [
    { role: 'user', content: 'look this up' },
    {
      role: 'assistant',
      tool_calls: [
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'lookup', arguments: JSON.stringify({ note: { type, text: PAD } }) },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
  ],
  tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
});

describe('chat completions: prompt hidden inside a `type: "image"` object of tool call arguments', () => {
  let upstream: LoopbackServer;
  let h: Harness;
  beforeAll(async () => {
    // An upstream that bills what it reads, as the real one does (~4 bytes of text per token).
    upstream = await startLoopbackServer((_req, res, body) => answerMessage(res, Math.ceil(body.length / 4)));
    h = await createHarness({ UPSTREAM_MESSAGES_URL: upstream.origin, UPSTREAM_MESSAGES_KEY: 'k' });
  });
  afterAll(async () => {
    await h?.close();
    await upstream?.close();
  });

  it('reserves for the hidden text as it does for the same text in any other object (a $0.05 wallet is refused)', async () => {
    // $0.05 covers ~62k input tokens of Haiku ($0.80/MTok); the pad alone is ~270k tokens (~$0.22).
    const plain = await aProjectWithKey(h, '0.05');
    const visible = await h.http
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${plain.key}`)
      .send(chatWith('note'));
    expect(visible.status).toBe(402);

    const hidden = await aProjectWithKey(h, '0.05');
    const before = upstream.requests.length;
    const res = await h.http
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${hidden.key}`)
      .send(chatWith('image'));
    // Refused like the visible one (it was admitted, and the upstream billed ~$0.22 of which the wallet held $0.05).
    const logs = await requestLogsOf(h, hidden.projectId);
    const wallet = await walletOf(h, hidden.org);
    const detail = {
      status: res.status,
      upstreamCalls: upstream.requests.length - before,
      logs: logs.map((l) => String(l.costMicros)),
      wallet,
    };
    expect(detail).toMatchObject({ status: 402, upstreamCalls: 0 });
  });
});
