// The requests Claude Code 2.1.197 (`claude -p`, ANTHROPIC_BASE_URL at the gateway) sends, as captured from the CLI
// run unmodified against this gateway and trimmed (two of its 24 tools, the first characters of its system blocks
// and reminders): its headers, betas and body fields pass, and a refused key tells it not to retry.
import { consumeRecords, type GatewayWorld, openGatewayWorld, requestLogsOf } from '../support/gateway.js';

let w: GatewayWorld;

beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w.close());

const claudeCodeHeaders = (key: string) => ({
  'x-api-key': key,
  'anthropic-version': '2023-06-01',
  'anthropic-beta':
    'claude-code-20250219,interleaved-thinking-2025-05-14,thinking-token-count-2026-05-13,context-management-2025-06-27,' +
    'prompt-caching-scope-2026-01-05,mid-conversation-system-2026-04-07,effort-2025-11-24',
  'anthropic-dangerous-direct-browser-access': 'true',
  'user-agent': 'claude-cli/2.1.197 (external, sdk-cli)',
  'x-app': 'cli',
  'x-claude-code-session-id': '4d2f100e-47e6-4ac2-9188-297a3f40fde7',
  'x-stainless-retry-count': '0',
  'x-stainless-timeout': '600',
});

const inputSchema = (properties: Record<string, unknown>, required: string[]) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
  $schema: 'https://json-schema.org/draft/2020-12/schema',
});

/** The main-loop request of `claude -p hi --model claude-sonnet-5`. */
const mainLoopRequest = {
  model: 'claude-sonnet-5',
  messages: [
    {
      role: 'user',
      content: [
        { type: 'text', text: "<system-reminder>\nAs you answer the user's questions, you can use the following " },
        { type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } },
      ],
    },
    { role: 'system', content: 'Available agent types for the Agent tool:\n- claude: Catch-all for any task' },
  ],
  system: [
    { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.197.0df; cc_entrypoint=sdk-cli;' },
    {
      type: 'text',
      text: "You are a Claude agent, built on Anthropic's Claude Agent SDK.",
      cache_control: { type: 'ephemeral' },
    },
    {
      type: 'text',
      text: '\nYou are an interactive agent that helps users with software engineering tasks. ',
      cache_control: { type: 'ephemeral' },
    },
  ],
  tools: [
    {
      name: 'Bash',
      description: 'Executes a given bash command and returns its output.',
      input_schema: inputSchema(
        {
          command: { description: 'The command to execute', type: 'string' },
          timeout: { description: 'Optional timeout in milliseconds (max 600000)', type: 'number' },
        },
        ['command'],
      ),
    },
    {
      name: 'Read',
      description: 'Reads a file from the local filesystem.',
      input_schema: inputSchema(
        {
          file_path: { description: 'The absolute path to the file to read', type: 'string' },
          offset: { type: 'integer', minimum: 0, maximum: 9007199254740991 },
        },
        ['file_path'],
      ),
    },
  ],
  metadata: {
    user_id: '{"device_id":"417c30a11c7b5cfa8390990c102126a61eaa","account_uuid":"","session_id":"4d2f100e-47e6"}',
  },
  max_tokens: 64000,
  thinking: { type: 'adaptive' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  output_config: { effort: 'high' },
  stream: true,
};

/** The session-title request it sends with the small model unless CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC is set. */
const titleRequest = {
  model: 'claude-haiku-4-5',
  messages: [{ role: 'user', content: 'hi' }],
  system: [{ type: 'text', text: 'Generate a concise, sentence-case title (3-7 words) for this session.' }],
  tools: [],
  metadata: mainLoopRequest.metadata,
  max_tokens: 32000,
  thinking: { type: 'disabled' },
  output_config: {
    format: {
      type: 'json_schema',
      schema: {
        type: 'object',
        properties: { title: { type: 'string' } },
        required: ['title'],
        additionalProperties: false,
      },
    },
  },
  stream: true,
};

const post = (path: string, body: unknown, key = w.key) =>
  w.h.http
    .post(path)
    .set(claudeCodeHeaders(key))
    .send(body as object);

describe('what Claude Code sends to /v1/messages', () => {
  it('streams the main-loop request, thinking first, and bills the request log exactly', async () => {
    const res = await post('/v1/messages?beta=true', mainLoopRequest);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.text).toContain('"content_block":{"type":"thinking"');
    expect(res.text).toContain('event: message_stop');
    const [forwarded] = w.sim.state.requests.filter((r) => r.path === '/v1/messages').slice(-1);
    expect(forwarded?.body).toMatchObject({
      metadata: mainLoopRequest.metadata,
      context_management: mainLoopRequest.context_management,
      output_config: mainLoopRequest.output_config,
      messages: mainLoopRequest.messages,
    });
    expect(String(forwarded?.headers['anthropic-beta'])).toContain('context-management-2025-06-27');

    const [log] = await requestLogsOf(w.h, w.projectId);
    expect(log).toMatchObject({ model: 'claude-sonnet-5', status: 'succeeded', httpStatus: 200 });
    expect(log?.cacheWriteTokens).toBeGreaterThan(0);
    const [record] = await consumeRecords(w.h, w.org);
    expect(BigInt(Math.round((record?.amount ?? 0) * 1e6))).toBe(log?.costMicros);
    expect(record?.requestLogId).toBe(log?.id);
  });

  it('answers the session-title request with structured output and thinking disabled', async () => {
    const res = await post('/v1/messages?beta=true', titleRequest);
    expect(res.status).toBe(200);
    expect(res.text).toContain('event: message_stop');
  });

  it('counts tokens the way /context asks (count_tokens?beta=true, no max_tokens)', async () => {
    const { max_tokens, stream, metadata, thinking, context_management, output_config, ...counted } = mainLoopRequest;
    const res = await post('/v1/messages/count_tokens?beta=true', counted);
    expect(res.status).toBe(200);
    expect(res.body.input_tokens).toBeGreaterThan(0);
  });
});

describe('a refused key', () => {
  // Claude Code retries a 401 about ten times with backoff (a minute or more before it prints the error), unless the
  // answer carries x-should-retry: false, which it, the Anthropic SDK and the openai SDK honour.
  it('answers 401 with x-should-retry: false on /v1/messages and /v1/chat/completions', async () => {
    const messages = await post('/v1/messages?beta=true', mainLoopRequest, 'ock_refused');
    expect(messages.status).toBe(401);
    expect(messages.body.error.type).toBe('authentication_error');
    expect(messages.headers['x-should-retry']).toBe('false');

    const chat = await w.h.http
      .post('/v1/chat/completions')
      .set('authorization', 'Bearer ock_refused')
      .send({ model: 'claude-sonnet-5', messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.status).toBe(401);
    expect(chat.headers['x-should-retry']).toBe('false');
  });
});
