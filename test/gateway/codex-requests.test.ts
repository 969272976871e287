// The requests OpenAI's Codex CLI 0.171.0 (`codex exec`, a custom provider with `wire_api = "responses"` at the
// gateway) sends, as captured from the CLI run unmodified against this gateway and trimmed (three of its nine tools,
// two functions of its `multi_agent_v1` namespace, the first characters of its developer messages): the first turn
// with its namespace and web_search tools, a namespaced call answered with its name and namespace, and the next turn
// that sends the call, its output and the reasoning back.
import { encryptedContentOf } from '../../shared/gateway/responses/reasoning-content.js';
import { consumeRecords, requestLogsOf } from '../support/gateway.js';
import { type ClientWorld, openClientWorld } from '../support/listening-gateway.js';
import { openAiPoster } from '../support/openai-route.js';

let w: ClientWorld;

beforeAll(async () => {
  w = await openClientWorld({ balance: '10' });
});
afterAll(() => w.closeAll());

const session = '01a21ca4-709d-7a60-82f1-fa19a8a87120';
const codexHeaders = (key: string) => ({
  authorization: `Bearer ${key}`,
  accept: 'text/event-stream',
  originator: 'codex_exec',
  'user-agent': 'codex_exec/0.171.0 (Debian 12.0.0; x86_64) xterm (codex_exec; 0.171.0)',
  'x-codex-beta-features': 'remote_compaction_v2',
  'x-codex-window-id': `${session}:0`,
  'x-codex-turn-metadata': JSON.stringify({ session_id: session, request_kind: 'turn', model: 'claude-sonnet-5' }),
  'x-client-request-id': session,
  'session-id': session,
  'thread-id': session,
});
const post = openAiPoster(() => w, '/v1/responses');
const postAsCodex = (body: unknown) => post(body, codexHeaders(w.key));

const execCommand = {
  type: 'function',
  name: 'exec_command',
  description: 'Runs a command in a PTY, returning output or a session ID for ongoing interaction.',
  strict: false,
  parameters: {
    type: 'object',
    properties: {
      cmd: { type: 'string', description: 'Shell command to execute.' },
      workdir: { type: 'string', description: 'Working directory for the command. Defaults to the turn cwd.' },
    },
    required: ['cmd'],
    additionalProperties: false,
  },
};
const multiAgent = {
  type: 'namespace',
  name: 'multi_agent_v1',
  description: 'Tools for spawning and managing sub-agents.',
  tools: [
    {
      type: 'function',
      name: 'wait_agent',
      description: 'Wait for agents to reach a final status.',
      strict: false,
      parameters: {
        type: 'object',
        properties: { targets: { type: 'array', items: { type: 'string' } }, timeout_ms: { type: 'number' } },
        required: ['targets'],
        additionalProperties: false,
      },
    },
    {
      type: 'function',
      name: 'close_agent',
      description: 'Close an agent and any open descendants when they are no longer needed.',
      strict: false,
      parameters: {
        type: 'object',
        properties: { target: { type: 'string', description: 'Agent id to close (from spawn_agent).' } },
        required: ['target'],
        additionalProperties: false,
      },
    },
  ],
};
/** Codex's default web search mode ("cached"). */
const webSearch = { type: 'web_search', external_web_access: false };

const developer = (id: string, text: string) => ({
  type: 'message',
  id,
  role: 'developer',
  content: [{ type: 'input_text', text }],
});
const user = (id: string, text: string) => ({
  type: 'message',
  id,
  role: 'user',
  content: [{ type: 'input_text', text }],
});

/** The first request of `codex exec "Say hello" -c model_reasoning_effort="high"`. */
const firstTurn = {
  model: 'claude-sonnet-5',
  input: [
    developer('msg_a9c37268-67dd-528e', 'You are a coding agent running in the Codex CLI, a terminal-based coding'),
    developer('msg_01a21ca4-70e1-7652', '<skills_instructions>\n## Skills\nA skill is a set of local instructions'),
    user('msg_01a21ca4-70e1-7653', '<environment_context>\n  <cwd>/tmp/work</cwd>\n  <shell>bash</shell>'),
    user('msg_01a21ca4-70e1-7654', 'Say hello'),
  ],
  tools: [execCommand, multiAgent, webSearch],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  reasoning: { effort: 'high', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: session,
  client_metadata: { thread_id: session, session_id: session, 'x-codex-window-id': `${session}:0` },
};

const upstreamBody = () =>
  w.sim.state.requests.filter((r) => r.path === '/v1/messages').at(-1)?.body as Record<string, unknown>;
/** The data of each event of a Responses stream. */
const eventsOf = (text: string) =>
  text
    .split('\n\n')
    .map((e) => e.split('\n').find((l) => l.startsWith('data: ')))
    .filter((d): d is string => d !== undefined)
    .map((d) => JSON.parse(d.slice('data: '.length)) as Record<string, unknown> & { type: string });

describe('what Codex sends to /v1/responses', () => {
  it('streams its first turn: namespace functions offered by joined names, web search not offered, billed once', async () => {
    const res = await postAsCodex(firstTurn);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = eventsOf(res.text);
    expect(events.at(-1)?.type).toBe('response.completed');
    const done = events.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
    expect(done).toEqual([
      expect.objectContaining({
        type: 'reasoning',
        encrypted_content: expect.stringMatching(/^ockhub\.thinking\.v1:/),
      }),
      expect.objectContaining({ type: 'message', status: 'completed' }),
    ]);

    const upstream = upstreamBody();
    expect((upstream.tools as { name: string }[]).map((t) => t.name)).toEqual([
      'exec_command',
      'multi_agent_v1__wait_agent',
      'multi_agent_v1__close_agent',
    ]);
    expect(upstream.system).toEqual([
      { type: 'text', text: firstTurn.input[0]?.content[0]?.text },
      { type: 'text', text: firstTurn.input[1]?.content[0]?.text },
    ]);
    // Codex names no output limit: it gets the model's whole output, not 4,096 tokens.
    expect(upstream).toMatchObject({
      max_tokens: 128_000,
      thinking: { type: 'adaptive' },
      output_config: { effort: 'high' },
      tool_choice: { type: 'auto' },
      stream: true,
    });

    const [log] = await requestLogsOf(w.h, w.projectId);
    expect(log).toMatchObject({ model: 'claude-sonnet-5', status: 'succeeded', httpStatus: 200 });
    const [record] = await consumeRecords(w.h, w.org);
    expect(record?.requestLogId).toBe(log?.id);
  });

  it('answers a call of a namespace function with its own name and namespace, streamed and not', async () => {
    // Codex sends tool_choice "auto", on which the simulated provider never calls a tool: "required" makes it call the
    // first tool offered, the namespace's first function.
    const forced = { ...firstTurn, tools: [multiAgent, webSearch], tool_choice: 'required' };
    const streamed = eventsOf((await postAsCodex(forced)).text);
    const call = { type: 'function_call', name: 'wait_agent', namespace: 'multi_agent_v1' };
    expect(streamed.find((e) => e.type === 'response.output_item.added')?.item).toMatchObject(call);
    expect(streamed.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({
      name: 'wait_agent',
    });
    expect(streamed.find((e) => e.type === 'response.output_item.done')?.item).toMatchObject({
      ...call,
      status: 'completed',
      arguments: expect.stringContaining('"targets"'),
    });

    const json = JSON.parse((await postAsCodex({ ...forced, stream: false })).text);
    expect(json.output).toEqual([expect.objectContaining({ ...call, call_id: expect.stringMatching(/^toolu_/) })]);
  });

  it('takes its next turn back: the reasoning, the namespaced call and its output become one valid tool loop', async () => {
    const thinking = { type: 'thinking', thinking: 'I should wait for agent x.', signature: 'c2lnbmF0dXJl' };
    const res = await postAsCodex({
      ...firstTurn,
      input: [
        ...firstTurn.input,
        {
          type: 'reasoning',
          id: 'rs_o9yUI1Kpw7HTPocieSF3Nsgh_0',
          summary: [{ type: 'summary_text', text: thinking.thinking }],
          content: null,
          encrypted_content: encryptedContentOf(thinking),
        },
        {
          type: 'function_call',
          status: 'completed',
          id: 'fc_o9yUI1Kpw7HTPocieSF3Nsgh_1',
          name: 'wait_agent',
          namespace: 'multi_agent_v1',
          arguments: '{"targets":["x"]}',
          call_id: 'toolu_znfzqUv22zxGlHsNIUkGphzq',
        },
        {
          type: 'function_call_output',
          id: 'fco_01a21ca4-61af-79f0',
          call_id: 'toolu_znfzqUv22zxGlHsNIUkGphzq',
          output: "invalid agent id x: Error(ParseChar { character: 'x', index: 1 })",
        },
      ],
    });
    expect(res.status).toBe(200);
    expect(eventsOf(res.text).at(-1)?.type).toBe('response.completed');
    const messages = upstreamBody().messages as { role: string; content: unknown[] }[];
    expect(messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: [
          thinking,
          {
            type: 'tool_use',
            id: 'toolu_znfzqUv22zxGlHsNIUkGphzq',
            name: 'multi_agent_v1__wait_agent',
            input: { targets: ['x'] },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_znfzqUv22zxGlHsNIUkGphzq',
            content: "invalid agent id x: Error(ParseChar { character: 'x', index: 1 })",
          },
        ],
      },
    ]);
    expect(upstreamBody().thinking).toEqual({ type: 'adaptive' });
  });
});

describe('tools it cannot offer', () => {
  it.each([
    [
      'a custom (freeform) tool in a namespace',
      { ...multiAgent, tools: [{ type: 'custom', name: 'apply_patch', format: { type: 'grammar' } }] },
      /^tools\.0\.tools\.0\.type: a namespace may hold only function tools/,
    ],
    [
      'a namespace function whose joined name another tool has',
      [{ ...execCommand, name: 'multi_agent_v1__wait_agent' }, multiAgent],
      /^tools\.1\.tools\.0\.name: another tool is already offered as multi_agent_v1__wait_agent/,
    ],
    [
      'a namespace function whose joined name is longer than 64 characters',
      { ...multiAgent, name: 'n'.repeat(60) },
      /^tools\.0\.tools\.0\.name: joined to its namespace as n+__wait_agent, it is longer than 64 characters/,
    ],
  ])('refuses %s with 400 naming it, before anything is sent', async (_label, tools, message) => {
    const calls = w.sim.state.counters.messages;
    const res = await postAsCodex({ ...firstTurn, tools: Array.isArray(tools) ? tools : [tools] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toMatch(message);
    expect(w.sim.state.counters.messages).toBe(calls);
  });
});

describe('namespace descriptions', () => {
  // Messages tools have no namespaces: the namespace's description (what the group is for) went nowhere.
  it("carries a namespace's description into each of its functions' descriptions upstream", async () => {
    expect((await post({ ...firstTurn, stream: false })).status).toBe(200);
    const offered = upstreamBody().tools as { name: string; description?: string }[];
    expect(offered.filter((t) => t.name.startsWith('multi_agent_v1__'))).toEqual([
      expect.objectContaining({
        name: 'multi_agent_v1__wait_agent',
        description: 'Tools for spawning and managing sub-agents.\n\nWait for agents to reach a final status.',
      }),
      expect.objectContaining({
        name: 'multi_agent_v1__close_agent',
        description:
          'Tools for spawning and managing sub-agents.\n\nClose an agent and any open descendants when they are no ' +
          'longer needed.',
      }),
    ]);
    expect(offered[0]).toMatchObject({ name: 'exec_command', description: execCommand.description });
  });

  it('keeps the description a namespace or its function leaves out to the other one', async () => {
    const bare = { ...multiAgent, description: undefined };
    const [wait, close] = multiAgent.tools;
    const tools = [{ ...bare, tools: [{ ...wait, description: undefined }, close] }];
    expect((await post({ ...firstTurn, tools, stream: false })).status).toBe(200);
    expect(upstreamBody().tools).toEqual([
      expect.not.objectContaining({ description: expect.anything() }),
      expect.objectContaining({ description: close?.description }),
    ]);
  });
});

describe('tool_choice beside namespace and web search tools', () => {
  it('forces a namespace function named with its namespace, as its joined upstream name', async () => {
    const res = await post({
      ...firstTurn,
      stream: false,
      tool_choice: { type: 'function', name: 'close_agent', namespace: 'multi_agent_v1' },
    });
    expect(res.status).toBe(200);
    expect(upstreamBody().tool_choice).toEqual({ type: 'tool', name: 'multi_agent_v1__close_agent' });
    expect(JSON.parse(res.text).tool_choice).toEqual({
      type: 'function',
      name: 'close_agent',
      namespace: 'multi_agent_v1',
    });
  });

  it.each([
    [
      'a function no tool offers',
      { ...firstTurn, tool_choice: { type: 'function', name: 'spawn_agent' } },
      /^tool_choice\.name: no function spawn_agent is offered in tools/,
    ],
    [
      'a namespace function without its namespace',
      { ...firstTurn, tool_choice: { type: 'function', name: 'close_agent' } },
      /^tool_choice\.name: no function close_agent is offered in tools/,
    ],
    [
      'a namespace function by its joined upstream name',
      { ...firstTurn, tool_choice: { type: 'function', name: 'multi_agent_v1__close_agent' } },
      /^tool_choice\.name: no function multi_agent_v1__close_agent is offered in tools/,
    ],
    [
      '"required" when only a web search is offered',
      { ...firstTurn, tools: [webSearch], tool_choice: 'required' },
      /^tool_choice: required: no function is offered in tools \(a web_search tool is accepted but never run here\)/,
    ],
  ])('refuses %s with 400 naming tool_choice, before anything is sent', async (_label, request, message) => {
    const calls = w.sim.state.counters.messages;
    const res = await post({ ...request, stream: false });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.message).toMatch(message);
    expect(w.sim.state.counters.messages).toBe(calls);
  });

  it.each(['auto', 'none'])(
    'sends no tool_choice upstream when only a web search was offered (tool_choice %s: nothing left to choose)',
    async (choice) => {
      const res = await post({ ...firstTurn, tools: [webSearch], tool_choice: choice, stream: false });
      expect(res.status).toBe(200);
      const body = upstreamBody();
      expect(body.tools).toBeUndefined();
      expect(body.tool_choice).toBeUndefined();
    },
  );
});
