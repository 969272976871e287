// A chat request's tool call `arguments` is JSON inside a string, so the body's pre-parse depth scan (128 levels,
// shared/validation/json-depth.ts) never saw its nesting, and the translation parsed it into a tool_use input of any
// depth. Until a security review, 5,000 levels (or 200,000) overflowed the stack in JSON.stringify of the upstream
// body, and the caller got 529 "the upstream could not be reached" (an upstream failure in the metrics, with no
// upstream contacted); 129 levels reached the upstream as sent. Now the arguments are held to the body's limit: 400.
import { MAX_JSON_DEPTH } from '../../shared/validation/json-shape.js';
import { answerMessage, aProjectWithKey } from '../support/gateway.js';
import { createHarness, type Harness } from '../support/harness.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const chatWithArguments = (args: string) => ({
  model: 'claude-haiku-4-5',
  max_tokens: 16,
  messages: [
    { role: 'user', content: 'look this up' },
    { role: 'assistant', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: args } }] },
    { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
  ],
});

describe('chat completions: tool call arguments nested past the body depth limit', () => {
  let upstream: LoopbackServer;
  let h: Harness;
  let key: string;
  beforeAll(async () => {
    upstream = await startLoopbackServer((_req, res) => answerMessage(res, 10));
    h = await createHarness({ UPSTREAM_MESSAGES_URL: upstream.origin, UPSTREAM_MESSAGES_KEY: 'k' });
    ({ key } = await aProjectWithKey(h, '1'));
  });
  afterAll(async () => {
    await h?.close();
    await upstream?.close();
  });

  const send = (args: string) =>
    h.http.post('/v1/chat/completions').set('authorization', `Bearer ${key}`).send(chatWithArguments(args));

  it.each([MAX_JSON_DEPTH + 1, 5_000, 200_000])(
    'answers 400 for %i levels, and the upstream is not called',
    async (depth) => {
      const before = upstream.requests.length;
      const res = await send(nested(depth));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'ChatCompletions.Invalid' });
      expect(res.body.error.message).toMatch(/^messages\[1\]\.tool_calls\[0\]\.function\.arguments: .*128 levels/);
      expect(upstream.requests.length).toBe(before);
    },
  );

  it('still forwards arguments nested to the limit', async () => {
    const res = await send(nested(MAX_JSON_DEPTH));
    expect(res.status).toBe(200);
    const sent = JSON.parse(upstream.requests.at(-1)?.body ?? '{}');
    expect(sent.messages[1].content[0]).toMatchObject({
      type: 'tool_use',
      id: 'call_1',
      input: JSON.parse(nested(MAX_JSON_DEPTH)),
    });
  });
});
