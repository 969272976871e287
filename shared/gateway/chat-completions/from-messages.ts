// Anthropic Messages answer → OpenAI Chat Completions answer: the JSON completion, and the stream translated event
// by event into `chat.completion.chunk`s ending with an optional usage chunk and `data: [DONE]`.
import { anthropicEventReader } from '../anthropic-sse.js';
import { type UsageFields, usageOf } from '../messages-usage.js';

/** An Anthropic content block of an answer, as both OpenAI dialects read it. */
export type Block = {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
};

/** A thinking block as the answer's `thinking_blocks` carry it (LiteLLM's convention): exactly what the upstream signed,
 * so a client that sends the message back keeps thinking on across a tool loop (to-messages.ts). */
const thinkingBlockOf = (b: Block) =>
  b.type === 'redacted_thinking'
    ? { type: 'redacted_thinking', data: b.data ?? '' }
    : { type: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' };
const isThinking = (b: Block) => b.type === 'thinking' || b.type === 'redacted_thinking';
type AnthropicMessage = {
  id?: string;
  content?: Block[];
  stop_reason?: string | null;
  usage?: UsageFields & { output_tokens_details?: { thinking_tokens?: number } | null };
};

export type ChatAnswerOptions = { model: string; formatTool?: string | undefined; created?: number };

const finishReasons: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

function finishReasonOf(stopReason: string | null | undefined, formatTool: string | undefined): string {
  if (stopReason === 'tool_use' && formatTool) return 'stop';
  return finishReasons[String(stopReason)] ?? 'stop';
}

const completionId = (messageId: string | undefined) =>
  `chatcmpl-${(messageId ?? '').replace(/^msg_/, '') || Date.now().toString(36)}`;

/** OpenAI counts every prompt token, cached or not, in prompt_tokens; cached_tokens says how many were read. */
export function chatUsageOf(fields: AnthropicMessage['usage']) {
  const u = usageOf(fields);
  const prompt = u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: u.outputTokens,
    total_tokens: prompt + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cacheReadTokens },
    completion_tokens_details: { reasoning_tokens: fields?.output_tokens_details?.thinking_tokens ?? 0 },
  };
}

export function messagesToChat(message: AnthropicMessage, options: ChatAnswerOptions) {
  const blocks = message.content ?? [];
  const text = blocks.filter((b) => b.type === 'text').map((b) => b.text ?? '');
  const reasoning = blocks.filter((b) => b.type === 'thinking').map((b) => b.thinking ?? '');
  const thinkingBlocks = blocks.filter(isThinking).map(thinkingBlockOf);
  const calls = blocks.filter((b) => b.type === 'tool_use');
  const format = calls.find((b) => b.name === options.formatTool);
  const toolCalls = calls
    .filter((b) => b !== format)
    .map((b) => ({ id: b.id, type: 'function', function: { name: b.name, arguments: JSON.stringify(b.input ?? {}) } }));
  const content = format ? JSON.stringify(format.input ?? {}) : text.length ? text.join('') : null;
  return {
    id: completionId(message.id),
    object: 'chat.completion',
    created: options.created ?? Math.floor(Date.now() / 1000),
    model: options.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: null,
          ...(reasoning.length ? { reasoning_content: reasoning.join('') } : {}),
          ...(thinkingBlocks.length ? { thinking_blocks: thinkingBlocks } : {}),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReasonOf(message.stop_reason, options.formatTool),
      },
    ],
    usage: chatUsageOf(message.usage),
  };
}

/** Translates an Anthropic SSE stream into OpenAI's, chunk by chunk as it comes. */
export class ChatStreamTranslator {
  private out = '';
  private id = completionId(undefined);
  private readonly created: number;
  private startUsage: UsageFields = {};
  private finalUsage: UsageFields | undefined;
  /** Anthropic block index → OpenAI tool_calls index (or 'format' for the response_format tool). */
  private readonly toolIndex = new Map<number, number | 'format'>();
  private nextToolIndex = 0;
  /** The thinking text of the block in progress, sent again with its signature as one `thinking_blocks` entry. */
  private thinkingText = '';
  private readonly read = anthropicEventReader((type, data) => this.onEvent(type, data));

  constructor(private readonly options: ChatAnswerOptions & { includeUsage: boolean }) {
    this.created = options.created ?? Math.floor(Date.now() / 1000);
  }

  /** The OpenAI bytes for one upstream chunk (often empty: not every event has a counterpart). */
  feed(chunk: Buffer): string {
    this.read(chunk);
    const out = this.out;
    this.out = '';
    return out;
  }

  trailer(): string {
    return 'data: [DONE]\n\n';
  }

  private emit(payload: unknown): void {
    this.out += `data: ${JSON.stringify(payload)}\n\n`;
  }

  private chunk(delta: Record<string, unknown>, finishReason: string | null = null): void {
    this.emit({
      id: this.id,
      object: 'chat.completion.chunk',
      created: this.created,
      model: this.options.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    });
  }

  private onEvent(type: string, data: Record<string, unknown>): void {
    switch (type) {
      case 'message_start': {
        const message = data.message as AnthropicMessage | undefined;
        this.id = completionId(message?.id);
        this.startUsage = message?.usage ?? {};
        this.chunk({ role: 'assistant', content: '' });
        return;
      }
      case 'content_block_start':
        this.startBlock(Number(data.index), data.content_block as Block);
        return;
      case 'content_block_delta':
        this.delta(Number(data.index), data.delta as Record<string, string>);
        return;
      case 'message_delta': {
        if (data.usage && typeof data.usage === 'object') this.finalUsage = data.usage as UsageFields;
        const stop = (data.delta as { stop_reason?: string } | undefined)?.stop_reason;
        this.chunk({}, finishReasonOf(stop, this.formatToolSeen()));
        return;
      }
      case 'message_stop':
        if (this.options.includeUsage) {
          const usage: UsageFields = { ...this.startUsage };
          for (const [k, v] of Object.entries(this.finalUsage ?? {})) {
            if (v !== null && v !== undefined) (usage as Record<string, unknown>)[k] = v;
          }
          this.emit({
            id: this.id,
            object: 'chat.completion.chunk',
            created: this.created,
            model: this.options.model,
            choices: [],
            usage: chatUsageOf(usage),
          });
        }
        return;
      case 'error': {
        const error = data.error as { message?: string } | undefined;
        this.emit({ error: { message: error?.message ?? 'The upstream failed.', type: 'server_error' } });
        return;
      }
    }
  }

  private formatToolSeen(): string | undefined {
    return [...this.toolIndex.values()].includes('format') ? this.options.formatTool : undefined;
  }

  private startBlock(index: number, block: Block): void {
    if (block?.type === 'thinking') this.thinkingText = '';
    if (block?.type === 'redacted_thinking') this.chunk({ thinking_blocks: [thinkingBlockOf(block)] });
    if (block?.type !== 'tool_use') return;
    if (block.name === this.options.formatTool) {
      this.toolIndex.set(index, 'format');
      return;
    }
    const toolIndex = this.nextToolIndex++;
    this.toolIndex.set(index, toolIndex);
    this.chunk({
      tool_calls: [{ index: toolIndex, id: block.id, type: 'function', function: { name: block.name, arguments: '' } }],
    });
  }

  private delta(index: number, delta: Record<string, string>): void {
    if (delta?.type === 'text_delta') {
      this.chunk({ content: delta.text });
    } else if (delta?.type === 'thinking_delta') {
      this.thinkingText += delta.thinking ?? '';
      this.chunk({ reasoning_content: delta.thinking });
    } else if (delta?.type === 'signature_delta') {
      // The block is whole once signed: one entry a client collects and sends back, as the JSON answer's.
      this.chunk({ thinking_blocks: [{ type: 'thinking', thinking: this.thinkingText, signature: delta.signature }] });
      this.thinkingText = '';
    } else if (delta?.type === 'input_json_delta' && delta.partial_json) {
      const target = this.toolIndex.get(index);
      if (target === 'format') this.chunk({ content: delta.partial_json });
      else if (target !== undefined) {
        this.chunk({ tool_calls: [{ index: target, function: { arguments: delta.partial_json } }] });
      }
    }
  }
}

export const chatStreamErrorEvent = (message: string) =>
  `data: ${JSON.stringify({ error: { message, type: 'server_error' } })}\n\n`;
