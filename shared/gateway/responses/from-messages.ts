// Anthropic Messages answer → OpenAI Response: the JSON answer, and the stream translated event by event into
// Responses events (`response.created` … `response.completed`, each with a growing `sequence_number`, no `[DONE]`).
// Text blocks become `message` items, tool_use blocks `function_call` items (call_id = the tool_use id; name and
// namespace by response-tools.ts), the JSON format's forced tool a `message` item with the JSON as its text, and
// thinking a `reasoning` item whose summary is the thinking text; with `include: ["reasoning.encrypted_content"]` the
// item also carries the thinking block (signature included, and redacted thinking as items of their own) to be sent
// back (reasoning-content.ts).
import { anthropicEventReader } from '../anthropic-sse.js';
import { chatUsageOf } from '../chat-completions/from-messages.js';
import type { UsageFields } from '../messages-usage.js';
import { encryptedContentOf } from './reasoning-content.js';
import type { ResponsesRequest } from './response-request.js';
import { callNameOf, type ToolNames } from './response-tools.js';

type Block = {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
};
type AnthropicUsage = UsageFields & { output_tokens_details?: { thinking_tokens?: number } | null };
type AnthropicMessage = { id?: string; content?: Block[]; stop_reason?: string | null; usage?: AnthropicUsage };
type Item = Record<string, unknown> & { id: string; type: string };

export type ResponseAnswerOptions = {
  /** The registry id the caller asked for. */
  model: string;
  formatTool?: string | undefined;
  /** Whether reasoning items carry their thinking blocks (`include: ["reasoning.encrypted_content"]`). */
  encryptedReasoning?: boolean;
  /** Upstream tool names that stand for a namespaced function (response-tools.ts). */
  toolNames?: ToolNames;
  /** The request fields a Response echoes (responseEcho). */
  echo: Record<string, unknown>;
  created?: number;
};

/** What a Response repeats of its request, with OpenAI's defaults where the request left a field out. */
export function responseEcho(request: ResponsesRequest): Record<string, unknown> {
  return {
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    metadata: request.metadata ?? {},
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    service_tier: 'default',
    store: false,
    temperature: request.temperature ?? 1,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    top_p: request.top_p ?? 1,
    truncation: 'disabled',
    background: false,
    ...(request.user ? { user: request.user } : {}),
  };
}

/** OpenAI counts every input token, cached or not, in input_tokens; cached_tokens says how many were read. */
export function responseUsageOf(fields: AnthropicUsage | undefined) {
  const u = chatUsageOf(fields);
  return {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details.cached_tokens },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: u.completion_tokens_details.reasoning_tokens },
    total_tokens: u.total_tokens,
  };
}

const incompleteReasons: Record<string, string> = {
  max_tokens: 'max_output_tokens',
  model_context_window_exceeded: 'max_output_tokens',
  refusal: 'content_filter',
};

const baseIdOf = (messageId: string | undefined) =>
  (messageId ?? '').replace(/^msg_/, '') || `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/** A Response without the request fields it echoes (the caller adds them: once per stream, serialized). */
function envelope(
  base: string,
  model: string,
  created: number,
  state: { status: string; stopReason?: string | null; output: Item[]; usage: unknown; error?: unknown },
) {
  const reason = incompleteReasons[String(state.stopReason)];
  const status = state.status === 'completed' && reason ? 'incomplete' : state.status;
  return {
    id: `resp_${base}`,
    object: 'response',
    created_at: created,
    status,
    error: state.error ?? null,
    incomplete_details: status === 'incomplete' ? { reason: reason ?? 'max_output_tokens' } : null,
    model,
    output: state.output,
    usage: state.usage,
  };
}

const outputText = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });
const messageItem = (id: string, text: string, status: string): Item => ({
  id,
  type: 'message',
  status,
  role: 'assistant',
  content: [outputText(text)],
});
const reasoningItem = (id: string, text: string, encrypted?: string): Item => ({
  id,
  type: 'reasoning',
  summary: text ? [{ type: 'summary_text', text }] : [],
  ...(encrypted === undefined ? {} : { encrypted_content: encrypted }),
});
const callItem = (id: string, block: Block, args: string, status: string, names: ToolNames | undefined): Item => ({
  id,
  type: 'function_call',
  status,
  call_id: String(block.id),
  ...callNameOf(String(block.name), names),
  arguments: args,
});

/** The kind of output item an Anthropic content block becomes, if any (redacted thinking only to be sent back). */
function kindOf(block: Block, options: ResponseAnswerOptions): 'message' | 'reasoning' | 'function_call' | undefined {
  const { formatTool } = options;
  if (block.type === 'text') return 'message';
  if (block.type === 'thinking') return 'reasoning';
  if (block.type === 'redacted_thinking' && options.encryptedReasoning) return 'reasoning';
  if (block.type === 'tool_use') return block.name === formatTool ? 'message' : 'function_call';
  return undefined;
}

const itemId = (kind: string, base: string, index: number) =>
  `${{ message: 'msg', reasoning: 'rs', function_call: 'fc' }[kind]}_${base}_${index}`;

export function messagesToResponse(message: AnthropicMessage, options: ResponseAnswerOptions) {
  const base = baseIdOf(message.id);
  const output: Item[] = [];
  for (const block of message.content ?? []) {
    const kind = kindOf(block, options);
    if (!kind) continue;
    const id = itemId(kind, base, output.length);
    if (kind === 'reasoning') {
      const encrypted = options.encryptedReasoning ? encryptedContentOf(block) : undefined;
      output.push(reasoningItem(id, block.thinking ?? '', encrypted));
    } else if (kind === 'function_call')
      output.push(callItem(id, block, JSON.stringify(block.input ?? {}), 'completed', options.toolNames));
    else
      output.push(
        messageItem(id, block.type === 'text' ? (block.text ?? '') : JSON.stringify(block.input ?? {}), 'completed'),
      );
  }
  return {
    ...envelope(base, options.model, options.created ?? Math.floor(Date.now() / 1000), {
      status: 'completed',
      stopReason: message.stop_reason,
      output,
      usage: responseUsageOf(message.usage),
    }),
    ...options.echo,
  };
}

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
