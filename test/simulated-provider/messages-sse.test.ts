import { fetch } from 'undici';
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';
import { waitUntil } from '../support/harness.js';

type Received = { event: string; data: Record<string, unknown>; atMs: number };

async function streamFrom(
  sim: SimulatedProvider,
  body: Record<string, unknown>,
  stopAfter?: number,
): Promise<Received[]> {
  const abort = new AbortController();
  // Times count from before the request: the n-th event leaves (n - 1) pauses after the request arrived, however late
  // this process reads it, so a pace is a lower bound no busy machine can break (between two events, one read late
  // shortened the gap).
  const started = Date.now();
  const res = await fetch(`${sim.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ model: 'simulated-claude-haiku', max_tokens: 2048, stream: true, ...body }),
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: Received[] = [];
  let buffer = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body!) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = frame.match(/^event: (.+)$/m)?.[1] ?? '';
        const data = JSON.parse(frame.match(/^data: (.+)$/m)?.[1] ?? '{}');
        events.push({ event, data, atMs: Date.now() - started });
        if (stopAfter !== undefined && events.length >= stopAfter) {
          abort.abort();
          return events;
        }
        end = buffer.indexOf('\n\n');
      }
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  }
  return events;
}

const names = (events: Received[]) =>
  events.map((e) => (e.event === 'content_block_delta' ? `delta:${(e.data.delta as { type: string }).type}` : e.event));
const collapse = (list: string[]) => list.filter((name, i) => name !== list[i - 1]);

describe('simulated provider: raw Anthropic SSE', () => {
  let sim: SimulatedProvider;
  beforeAll(async () => {
    sim = await startSimulatedProvider({ chunkDelayMs: 15, slowChunkDelayMs: 150 });
  });
  afterAll(() => sim.close());

  it('sends the events in Anthropic order, each event line naming its data type', async () => {
    const events = await streamFrom(sim, { messages: [{ role: 'user', content: 'Order please' }] });
    expect(collapse(names(events))).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'delta:text_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of events) expect(e.data.type).toBe(e.event);
    const start = events[0]!.data.message as {
      content: unknown[];
      stop_reason: unknown;
      usage: { input_tokens: number };
    };
    expect(start).toMatchObject({
      content: [],
      stop_reason: null,
      usage: { input_tokens: Math.ceil('Order please'.length / 4) },
    });
    const deltas = events.filter((e) => e.event === 'content_block_delta');
    expect(deltas.length).toBeGreaterThan(5);
    const text = deltas.map((e) => (e.data.delta as { text: string }).text).join('');
    const messageDelta = events.find((e) => e.event === 'message_delta')!.data;
    expect(messageDelta).toMatchObject({
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: Math.ceil(text.length / 4) },
    });
  });

  it('flushes the events one by one with the configured pause between them', async () => {
    const events = await streamFrom(sim, { messages: [{ role: 'user', content: 'Pace yourself' }] });
    expect(events.at(-1)!.atMs).toBeGreaterThanOrEqual((events.length - 1) * 15 * 0.8);
    expect(new Set(events.map((e) => e.atMs)).size).toBeGreaterThan(events.length / 2);
  });

  it('streams thinking deltas and a signature_delta before the text block', async () => {
    const events = await streamFrom(sim, {
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'Reason first' }],
    });
    expect(collapse(names(events))).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'delta:thinking_delta',
      'delta:signature_delta',
      'content_block_stop',
      'content_block_start',
      'delta:text_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(events[1]!.data).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    const textStart = events.filter((e) => e.event === 'content_block_start')[1]!;
    expect(textStart.data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'text', text: '' },
    });
  });

  it('streams a forced tool call as input_json_delta pieces that join into the input', async () => {
    const events = await streamFrom(sim, {
      tools: [
        {
          name: 'lookup',
          input_schema: {
            type: 'object',
            properties: { term: { type: 'string' }, limit: { type: 'integer' } },
            required: ['term', 'limit'],
          },
        },
      ],
      tool_choice: { type: 'tool', name: 'lookup' },
      messages: [{ role: 'user', content: 'Look it up' }],
    });
    const start = events.find((e) => e.event === 'content_block_start')!.data;
    expect(start).toMatchObject({ index: 0, content_block: { type: 'tool_use', name: 'lookup', input: {} } });
    const pieces = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => e.data.delta as { type: string; partial_json: string });
    expect(pieces.every((p) => p.type === 'input_json_delta')).toBe(true);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(pieces.map((p) => p.partial_json).join(''))).toEqual({ term: 'simulated term', limit: 1 });
    expect(events.find((e) => e.event === 'message_delta')!.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('ends a [stream-error] stream with an error event after some deltas', async () => {
    const events = await streamFrom(sim, { messages: [{ role: 'user', content: 'oops [stream-error]' }] });
    expect(events.filter((e) => e.event === 'content_block_delta').length).toBe(3);
    expect(events.at(-1)).toMatchObject({
      event: 'error',
      data: { type: 'error', error: { type: 'overloaded_error' } },
    });
    expect(events.some((e) => e.event === 'message_stop')).toBe(false);
  });

  it('paces [slow] streams at the slow delay and stops writing when the client disconnects', async () => {
    const before = sim.state.counters.messageStreamsAborted;
    const events = await streamFrom(sim, { messages: [{ role: 'user', content: 'take your time [slow]' }] }, 3);
    expect(events[2]!.atMs).toBeGreaterThanOrEqual(2 * 150 * 0.8);
    await waitUntil(async () => sim.state.counters.messageStreamsAborted === before + 1, 3000, 20);
  });
});
