// Turns a composed assistant message into Anthropic's stream: message_start, then per block content_block_start,
// (a ping after the first start), deltas in several pieces, content_block_stop, then message_delta and message_stop.
import type { SseEvent } from '../sse-writer.js';
import type { AnswerBlock, AssistantMessage } from './answer.js';
import { isServerToolResult } from './server-tools.js';

const WORDS_PER_DELTA = 3;
const JSON_PIECES = 4;

/** Splits text into pieces of a few words that join back to exactly the same text. */
export function textPieces(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_DELTA) pieces.push(words.slice(i, i + WORDS_PER_DELTA).join(''));
  return pieces;
}

function jsonPieces(json: string): string[] {
  const size = Math.max(1, Math.ceil(json.length / JSON_PIECES));
  const pieces = [''];
  for (let i = 0; i < json.length; i += size) pieces.push(json.slice(i, i + size));
  return pieces;
}

function startBlock(block: AnswerBlock) {
  if (block.type === 'text') return { type: 'text', text: '' };
  if (block.type === 'thinking') return { type: 'thinking', thinking: '', signature: '' };
  if (isServerToolResult(block)) return block;
  return { type: block.type, id: block.id, name: block.name, input: {} };
}

function deltas(block: AnswerBlock): unknown[] {
  // A server tool's result arrives whole in its content_block_start.
  if (isServerToolResult(block)) return [];
  if (block.type === 'text') return textPieces(block.text).map((text) => ({ type: 'text_delta', text }));
  if (block.type === 'thinking') {
    return [
      ...textPieces(block.thinking).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: block.signature },
    ];
  }
  return jsonPieces(JSON.stringify(block.input)).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
}

export const overloadedStreamError = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };

/**
 * The events of a streamed answer. With `failAfterDeltas`, the stream stops after that many deltas (or before
 * message_delta, whichever comes first) with an `error` event, as Anthropic does when it fails mid-stream.
 */
export function streamEvents(message: AssistantMessage, options: { failAfterDeltas?: number } = {}): SseEvent[] {
  const { usage } = message;
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
    },
  ];
  const ping: SseEvent = { event: 'ping', data: { type: 'ping' } };
  if (message.content.length === 0) events.push(ping);
  const failAfter = options.failAfterDeltas;
  const fail = () => events.push({ event: 'error', data: overloadedStreamError });
  let sent = 0;
  for (const [index, block] of message.content.entries()) {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: startBlock(block) },
    });
    if (index === 0) events.push(ping);
    for (const delta of deltas(block)) {
      if (failAfter !== undefined && sent++ >= failAfter) {
        fail();
        return events;
      }
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  }
  if (failAfter !== undefined) {
    fail();
    return events;
  }
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence },
      usage: {
        input_tokens: usage.input_tokens,
        cache_creation_input_tokens: usage.cache_creation_input_tokens,
        cache_read_input_tokens: usage.cache_read_input_tokens,
        output_tokens: usage.output_tokens,
        server_tool_use: usage.server_tool_use,
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}
