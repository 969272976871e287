// Anthropic Messages answer → OpenAI Response: the JSON answer, and the items and envelope the stream's translation
// (response-stream.ts) builds too.
// Text blocks become `message` items, tool_use blocks `function_call` items (call_id = the tool_use id; name and
// namespace by response-tools.ts), the JSON format's forced tool a `message` item with the JSON as its text, and
// thinking a `reasoning` item whose summary is the thinking text; with `include: ["reasoning.encrypted_content"]` the
// item also carries the thinking block (signature included, and redacted thinking as items of their own) to be sent
// back (reasoning-content.ts).
import { type Block, chatUsageOf } from '../chat-completions/from-messages.js';
import type { UsageFields } from '../messages-usage.js';
import { encryptedContentOf } from './reasoning-content.js';
import type { ResponsesRequest } from './response-request.js';
import { callNameOf, type ToolNames } from './response-tools.js';

export type { Block };
export type AnthropicUsage = UsageFields & { output_tokens_details?: { thinking_tokens?: number } | null };
export type AnthropicMessage = { id?: string; content?: Block[]; stop_reason?: string | null; usage?: AnthropicUsage };
export type Item = Record<string, unknown> & { id: string; type: string };

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

export const baseIdOf = (messageId: string | undefined) =>
  (messageId ?? '').replace(/^msg_/, '') || `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/** A Response without the request fields it echoes (the caller adds them: once per stream, serialized). */
export function envelope(
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

export const outputText = (text: string) => ({ type: 'output_text', text, annotations: [], logprobs: [] });
export const messageItem = (id: string, text: string, status: string): Item => ({
  id,
  type: 'message',
  status,
  role: 'assistant',
  content: [outputText(text)],
});
export const reasoningItem = (id: string, text: string, encrypted?: string): Item => ({
  id,
  type: 'reasoning',
  summary: text ? [{ type: 'summary_text', text }] : [],
  ...(encrypted === undefined ? {} : { encrypted_content: encrypted }),
});
export const callItem = (
  id: string,
  block: Block,
  args: string,
  status: string,
  names: ToolNames | undefined,
): Item => ({
  id,
  type: 'function_call',
  status,
  call_id: String(block.id),
  ...callNameOf(String(block.name), names),
  arguments: args,
});

/** The kind of output item an Anthropic content block becomes, if any (redacted thinking only to be sent back). */
export function kindOf(
  block: Block,
  options: ResponseAnswerOptions,
): 'message' | 'reasoning' | 'function_call' | undefined {
  const { formatTool } = options;
  if (block.type === 'text') return 'message';
  if (block.type === 'thinking') return 'reasoning';
  if (block.type === 'redacted_thinking' && options.encryptedReasoning) return 'reasoning';
  if (block.type === 'tool_use') return block.name === formatTool ? 'message' : 'function_call';
  return undefined;
}

export const itemId = (kind: string, base: string, index: number) =>
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
