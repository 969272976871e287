// The Anthropic SSE stream of a Responses request translated event by event into Responses events
// (`response.created` … `response.completed`, each with a growing `sequence_number`, no `[DONE]`), with the items
// from-messages.ts builds for a JSON answer.
import { anthropicEventReader } from '../anthropic-sse.js';
import {
  type AnthropicMessage,
  type AnthropicUsage,
  type Block,
  baseIdOf,
  callItem,
  envelope,
  type Item,
  itemId,
  kindOf,
  messageItem,
  outputText,
  type ResponseAnswerOptions,
  reasoningItem,
  responseUsageOf,
} from './from-messages.js';
import { encryptedContentOf } from './reasoning-content.js';

type OpenBlock = {
  kind: 'message' | 'reasoning' | 'function_call';
  outputIndex: number;
  id: string;
  block: Block;
  text: string;
  /** A thinking block's signature, from its signature_delta. */
  signature?: string;
};

/** Translates an Anthropic SSE stream into Responses events, chunk by chunk as it comes. */
export class ResponseStreamTranslator {
  private out = '';
  private sequence = 0;
  private base = baseIdOf(undefined);
  private readonly created: number;
  private started = false;
  private finished = false;
  private startUsage: AnthropicUsage = {};
  private finalUsage: AnthropicUsage | undefined;
  private stopReason: string | null | undefined;
  private readonly output: Item[] = [];
  private readonly open = new Map<number, OpenBlock>();
  private readonly read = anthropicEventReader((type, data) => this.onEvent(type, data));
  /** The echoed request fields as JSON members, serialized once: every snapshot (three a stream) repeats them. */
  private readonly echoJson: string;

  constructor(private readonly options: ResponseAnswerOptions) {
    this.created = options.created ?? Math.floor(Date.now() / 1000);
    this.echoJson = JSON.stringify(options.echo).slice(1, -1);
  }

  /** The Responses events for one upstream chunk (often empty: not every event has a counterpart). */
  feed(chunk: Buffer): string {
    this.read(chunk);
    return this.take();
  }

  /** What ends the stream: a `response.failed` if the upstream's stream ended before its final event. */
  trailer(): string {
    if (!this.finished) this.fail('The upstream stream ended before the response was complete.');
    return this.take();
  }

  /** The event for an upstream stream that broke off (the relay's error event). */
  failed(message: string): string {
    if (!this.finished) this.fail(message);
    return this.take();
  }

  private take(): string {
    const out = this.out;
    this.out = '';
    return out;
  }

  /** One event; `response` is a snapshot's JSON, spliced in as the payload's last member. */
  private emit(type: string, payload: Record<string, unknown>, response?: string): void {
    const json = JSON.stringify({ type, sequence_number: this.sequence++, ...payload });
    const data = response === undefined ? json : `${json.slice(0, -1)},"response":${response}}`;
    this.out += `event: ${type}\ndata: ${data}\n\n`;
  }

  private usage(): ReturnType<typeof responseUsageOf> {
    const usage: AnthropicUsage = { ...this.startUsage };
    for (const [k, v] of Object.entries(this.finalUsage ?? {})) {
      if (v !== null && v !== undefined) (usage as Record<string, unknown>)[k] = v;
    }
    return responseUsageOf(usage);
  }

  /** The Response so far, as JSON, and its status. */
  private snapshot(status: string, error?: unknown): { status: string; json: string } {
    const response = envelope(this.base, this.options.model, this.created, {
      status,
      stopReason: this.stopReason,
      output: this.outputSoFar(),
      usage: status === 'in_progress' ? null : this.usage(),
      ...(error ? { error } : {}),
    });
    const json = JSON.stringify(response);
    return { status: response.status, json: this.echoJson ? `${json.slice(0, -1)},${this.echoJson}}` : json };
  }

  /** The output items, those still open (a stream that failed mid-block) holding what they streamed so far. */
  private outputSoFar(): Item[] {
    if (this.open.size === 0) return this.output;
    const output = [...this.output];
    for (const open of this.open.values()) {
      output[open.outputIndex] =
        open.kind === 'message'
          ? messageItem(open.id, open.text, 'incomplete')
          : open.kind === 'reasoning'
            ? reasoningItem(open.id, open.text)
            : callItem(open.id, open.block, open.text, 'incomplete', this.options.toolNames);
    }
    return output;
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.emit('response.created', {}, this.snapshot('in_progress').json);
    this.emit('response.in_progress', {}, this.snapshot('in_progress').json);
  }

  private fail(message: string): void {
    this.start();
    this.finished = true;
    this.emit('response.failed', {}, this.snapshot('failed', { code: 'server_error', message }).json);
  }

  private onEvent(type: string, data: Record<string, unknown>): void {
    if (this.finished) return;
    switch (type) {
      case 'message_start': {
        const message = data.message as AnthropicMessage | undefined;
        this.base = baseIdOf(message?.id);
        this.startUsage = message?.usage ?? {};
        this.start();
        return;
      }
      case 'content_block_start':
        this.startBlock(Number(data.index), data.content_block as Block);
        return;
      case 'content_block_delta':
        this.delta(Number(data.index), data.delta as Record<string, string>);
        return;
      case 'content_block_stop':
        this.stopBlock(Number(data.index));
        return;
      case 'message_delta':
        if (data.usage && typeof data.usage === 'object') this.finalUsage = data.usage as AnthropicUsage;
        this.stopReason = (data.delta as { stop_reason?: string } | undefined)?.stop_reason ?? this.stopReason;
        return;
      case 'message_stop': {
        this.finished = true;
        const response = this.snapshot('completed');
        this.emit(response.status === 'completed' ? 'response.completed' : 'response.incomplete', {}, response.json);
        return;
      }
      case 'error': {
        const error = data.error as { message?: string } | undefined;
        this.fail(error?.message ?? 'The upstream failed.');
        return;
      }
    }
  }

  private startBlock(index: number, block: Block): void {
    const kind = block ? kindOf(block, this.options) : undefined;
    if (!kind) return;
    this.start();
    const outputIndex = this.output.length;
    const open: OpenBlock = { kind, outputIndex, id: itemId(kind, this.base, outputIndex), block, text: '' };
    this.open.set(index, open);
    const at = { item_id: open.id, output_index: outputIndex };
    if (kind === 'message') {
      const item = { ...messageItem(open.id, '', 'in_progress'), content: [] };
      this.output.push(item);
      this.emit('response.output_item.added', { output_index: outputIndex, item });
      this.emit('response.content_part.added', { ...at, content_index: 0, part: outputText('') });
    } else if (kind === 'reasoning') {
      const item = reasoningItem(open.id, '');
      this.output.push(item);
      this.emit('response.output_item.added', { output_index: outputIndex, item });
      this.emit('response.reasoning_summary_part.added', {
        ...at,
        summary_index: 0,
        part: { type: 'summary_text', text: '' },
      });
    } else {
      const item = callItem(open.id, block, '', 'in_progress', this.options.toolNames);
      this.output.push(item);
      this.emit('response.output_item.added', { output_index: outputIndex, item });
    }
  }

  private delta(index: number, delta: Record<string, string>): void {
    const open = this.open.get(index);
    if (!open || !delta) return;
    if (delta.type === 'signature_delta') open.signature = delta.signature;
    const piece =
      delta.type === 'text_delta'
        ? delta.text
        : delta.type === 'thinking_delta'
          ? delta.thinking
          : delta.type === 'input_json_delta'
            ? delta.partial_json
            : undefined;
    if (!piece) return;
    open.text += piece;
    const at = { item_id: open.id, output_index: open.outputIndex };
    if (open.kind === 'message') {
      this.emit('response.output_text.delta', { ...at, content_index: 0, delta: piece, logprobs: [] });
    } else if (open.kind === 'reasoning') {
      this.emit('response.reasoning_summary_text.delta', { ...at, summary_index: 0, delta: piece });
    } else {
      this.emit('response.function_call_arguments.delta', { ...at, delta: piece });
    }
  }

  private stopBlock(index: number): void {
    const open = this.open.get(index);
    if (!open) return;
    this.open.delete(index);
    const at = { item_id: open.id, output_index: open.outputIndex };
    let item: Item;
    if (open.kind === 'message') {
      // A forced format tool with no input streams no delta: its answer is the empty object.
      const text = open.block.type === 'tool_use' && open.text === '' ? '{}' : open.text;
      this.emit('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] });
      this.emit('response.content_part.done', { ...at, content_index: 0, part: outputText(text) });
      item = messageItem(open.id, text, 'completed');
    } else if (open.kind === 'reasoning') {
      this.emit('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: open.text });
      this.emit('response.reasoning_summary_part.done', {
        ...at,
        summary_index: 0,
        part: { type: 'summary_text', text: open.text },
      });
      const encrypted = this.options.encryptedReasoning
        ? encryptedContentOf({ ...open.block, thinking: open.text, signature: open.signature ?? open.block.signature })
        : undefined;
      item = reasoningItem(open.id, open.text, encrypted);
    } else {
      const args = open.text === '' ? '{}' : open.text;
      item = callItem(open.id, open.block, args, 'completed', this.options.toolNames);
      this.emit('response.function_call_arguments.done', { ...at, name: item.name, arguments: args });
    }
    this.output[open.outputIndex] = item;
    this.emit('response.output_item.done', { output_index: open.outputIndex, item });
  }
}
