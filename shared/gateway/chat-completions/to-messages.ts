// OpenAI Chat Completions request → Anthropic Messages request. System and developer messages become the system
// prompt; tool messages become tool_result blocks of one user turn; tool_calls become tool_use blocks; a JSON
// response_format becomes a forced tool whose input is the answer; reasoning_effort turns thinking on.
import { badRequest } from '../../errors/app-error.js';
import {
  JsonBudget,
  type JsonExcess,
  MAX_JSON_CONTAINERS,
  MAX_JSON_DEPTH,
  MAX_JSON_KEY_BYTES,
  MAX_JSON_KEYS,
  MAX_JSON_VALUES,
} from '../../validation/json-shape.js';
import { DEFAULT_MAX_TOKENS, type ModelEntry } from '../model-registry.js';
import { checkOpenAiOutputLimit } from '../output-limit.js';
import type { ChatCompletionRequest, ChatMessage } from './chat-request.js';

/** Thinking budgets for models that take `budget_tokens` rather than an effort. */
const budgetByEffort = { low: 1024, medium: 4096, high: 16_000, xhigh: 32_000, max: 64_000 } as const;
const effortOf = { minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh', max: 'max' } as const;

export type Block = Record<string, unknown>;
export type Turn = { role: 'user' | 'assistant'; content: Block[] };

export type TranslatedRequest = {
  body: Record<string, unknown>;
  /** The tool standing for a JSON response_format: its input is the answer's content. */
  formatTool?: string;
  /** The same request at the 4,096-token default output limit, when `body` asks for more only because the caller
   * named no limit: what is sent instead when the wallet cannot hold `body` (messages-gateway.ts, startMessages). */
  bodyAtDefaultLimit?: Record<string, unknown>;
};

/** A 400 naming the parameter, under the dialect's code. */
export type Refuse = (param: string, message: string) => Error;
const invalid: Refuse = (param, message) => badRequest('ChatCompletions.Invalid', `${param}: ${message}`);

function textOf(content: string | { text: string }[]): string {
  return typeof content === 'string' ? content : content.map((p) => p.text).join('\n');
}

/** An image part (OpenAI's `image_url` or `input_image`): an http(s) URL or a base64 data URL. */
export function imageBlock(url: string, param: string, refuse: Refuse = invalid): Block {
  const data = /^data:(image\/(?:jpeg|png|gif|webp));base64,(.+)$/s.exec(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw refuse(param, 'an image must be an http(s) URL or a data:image/(jpeg|png|gif|webp);base64 URL');
}

/** A PDF sent as a data URL (OpenAI's `file_data`), as a document block; anything else is refused. */
export function pdfBlock(fileData: string | null | undefined, param: string, refuse: Refuse = invalid): Block {
  const pdf = /^data:application\/pdf;base64,(.+)$/s.exec(fileData ?? '');
  if (!pdf) throw refuse(param, 'a file part must carry file_data as a data:application/pdf;base64 URL');
  return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf[1] } };
}

function userBlocks(message: Extract<ChatMessage, { role: 'user' }>, i: number): Block[] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.map((part, j): Block => {
    const param = `messages[${i}].content[${j}]`;
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image_url') return imageBlock(part.image_url.url, param);
    return pdfBlock(part.file.file_data, param);
  });
}

/** What the tool calls' arguments (JSON inside strings, which the body's own scan skips) may not exceed in all. */
const argumentsExcess: Record<JsonExcess, string> = {
  depth: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`,
  containers: `must not bring the tool calls' arguments past ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} objects and arrays in all`,
  values: `must not bring the tool calls' arguments past ${MAX_JSON_VALUES.toLocaleString('en-US')} values in all`,
  keys: `must not bring the tool calls' arguments past ${MAX_JSON_KEYS.toLocaleString('en-US')} object keys in all`,
  'key length': `must not hold an object key longer than ${MAX_JSON_KEY_BYTES.toLocaleString('en-US')} bytes`,
};

/** A tool call's `arguments` string as the tool_use block's input, charged to the request's arguments budget. */
export function toolInputOf(args: string, param: string, budget: JsonBudget, refuse: Refuse = invalid): unknown {
  // JSON inside a string escapes the body's scan: deeper input overflowed JSON.stringify of the upstream body, and
  // arguments full of `{}` cost JSON.parse seconds (security review #89).
  const excess = budget.charge(Buffer.from(args, 'utf8'));
  if (excess) throw refuse(param, argumentsExcess[excess]);
  try {
    return args.trim() === '' ? {} : JSON.parse(args);
  } catch {
    throw refuse(param, 'must be a JSON object');
  }
}

/**
 * A `thinking_blocks` entry of an answer sent back, as the block the upstream signed: a `thinking` block with its text
 * and signature, or a `redacted_thinking` block with its data, exactly as they came; anything else (no signature, a
 * block made elsewhere) is dropped, as `reasoning_content` is, since the upstream would refuse it. The signature is
 * the upstream's own, which it verifies: a forged block gains nothing but the upstream's 400.
 */
function replayedThinking(entry: unknown): Block[] {
  if (!entry || typeof entry !== 'object') return [];
  const { type, thinking, signature, data } = entry as Record<string, unknown>;
  if (type === 'thinking' && typeof thinking === 'string' && typeof signature === 'string' && signature) {
    return [{ type, thinking, signature }];
  }
  if (type === 'redacted_thinking' && typeof data === 'string' && data) return [{ type, data }];
  return [];
}

function assistantBlocks(
  message: Extract<ChatMessage, { role: 'assistant' }>,
  i: number,
  argumentsBudget: JsonBudget,
): Block[] {
  const blocks: Block[] = [];
  const text =
    typeof message.content === 'string'
      ? message.content
      : (message.content ?? []).map((p) => ('text' in p ? p.text : p.refusal)).join('');
  if (text) blocks.push({ type: 'text', text });
  for (const [j, call] of (message.tool_calls ?? []).entries()) {
    const param = `messages[${i}].tool_calls[${j}].function.arguments`;
    const input = toolInputOf(call.function.arguments, param, argumentsBudget);
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  }
  if (blocks.length === 0) throw invalid(`messages[${i}]`, 'an assistant message needs content or tool_calls');
  // The thinking that led to the turn goes first, as the upstream wrote it: with thinking on, a turn that calls a tool
  // must start with it, and then the loop keeps thinking (toolLoopWithoutThinking).
  const thinking = (message.thinking_blocks ?? []).flatMap(replayedThinking);
  return thinking.length ? [...thinking, ...blocks] : blocks;
}

/** Anthropic turns added to one at a time, consecutive turns of one role merged into one. */
export function mergedTurns() {
  const turns: Turn[] = [];
  const push = (role: Turn['role'], content: Block[]) => {
    const last = turns.at(-1);
    // One by one: a spread of hundreds of thousands of parts overflows the call stack.
    if (last?.role === role) for (const block of content) last.content.push(block);
    else turns.push({ role, content });
  };
  return { turns, push };
}

/** The conversation as Anthropic turns: consecutive turns of one role are merged, so tool results answering one
 * assistant turn land in the single user turn right after it, as Anthropic requires. */
function turnsOf(messages: ChatMessage[]): { system: Block[]; turns: Turn[] } {
  const system: Block[] = [];
  const { turns, push } = mergedTurns();
  const argumentsBudget = new JsonBudget();
  for (const [i, m] of messages.entries()) {
    if (m.role === 'system' || m.role === 'developer') {
      const text = textOf(m.content);
      if (text) system.push({ type: 'text', text });
    } else if (m.role === 'user') {
      push('user', userBlocks(m, i));
    } else if (m.role === 'assistant') {
      push('assistant', assistantBlocks(m, i, argumentsBudget));
    } else {
      push('user', [{ type: 'tool_result', tool_use_id: m.tool_call_id, content: textOf(m.content) }]);
    }
  }
  return { system, turns };
}

/** A function tool as OpenAI's two APIs name it (nested under `function` in Chat Completions, flat in Responses). */
export type FunctionTool = {
  name: string;
  description?: string | null | undefined;
  parameters?: Record<string, unknown> | null | undefined;
  strict?: boolean | null | undefined;
};
export type ToolChoice = 'none' | 'auto' | 'required' | { name: string } | null | undefined;
/** A JSON answer format: a named schema, or any JSON object. */
export type JsonFormat =
  | { name: string; description?: string | null | undefined; schema?: Record<string, unknown> | null | undefined }
  | 'json_object'
  | undefined;

function toolChoiceOf(choice: ToolChoice, parallelToolCalls: boolean | null | undefined): Block | undefined {
  const parallel = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...parallel };
  if (choice && typeof choice === 'object') return { type: 'tool', name: choice.name, ...parallel };
  if (choice === 'auto' || parallelToolCalls === false) return { type: 'auto', ...parallel };
  return undefined;
}

function formatToolOf(format: JsonFormat): Block | undefined {
  if (format === 'json_object') {
    return { name: 'json_object', description: 'Answer with a JSON object.', input_schema: { type: 'object' } };
  }
  if (format) {
    return {
      name: format.name,
      description: format.description ?? 'Answer with the JSON this tool takes as input.',
      input_schema: format.schema ?? { type: 'object' },
    };
  }
  return undefined;
}

export type ReasoningEffort = NonNullable<ChatCompletionRequest['reasoning_effort']>;

/** A reasoning effort as Messages thinking (adaptive with an effort, or a budget below max_tokens), if the model thinks. */
function thinkingOf(effort: ReasoningEffort | null | undefined, model: ModelEntry, maxTokens: number): Block {
  if (!effort || effort === 'none' || !model.supportsThinking) return {};
  const level = effortOf[effort];
  if (model.thinkingMode === 'adaptive') return { thinking: { type: 'adaptive' }, output_config: { effort: level } };
  const budget = Math.min(budgetByEffort[level], maxTokens - 1);
  return budget >= 1024 ? { thinking: { type: 'enabled', budget_tokens: budget } } : {};
}

/** Whether Anthropic would refuse thinking for this conversation: with thinking on, the last assistant turn, when it
 * calls a tool, must start with the thinking block that led to the call, and a conversation whose thinking was not
 * carried back (the OpenAI dialects drop it unless it comes back signed: Chat Completions' `thinking_blocks`, Responses'
 * encrypted reasoning) has none there. */
function toolLoopWithoutThinking(turns: Turn[]): boolean {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i] as Turn;
    if (turn.role !== 'assistant') continue;
    if (!turn.content.some((b) => b.type === 'tool_use')) return false;
    const first = turn.content[0]?.type;
    return first !== 'thinking' && first !== 'redacted_thinking';
  }
  return false;
}

/** The tool offered when a conversation holds tool calls but the request offers no tool. Anthropic refuses tool_use
 * and tool_result blocks without tools, where OpenAI serves them: an Agents SDK agent handed a conversation by another
 * and offering no tool of its own, a last call that only sums a tool loop up. The model may not call it (the request
 * goes with `tool_choice: none`), so it answers in text, as OpenAI's model does with no tools. */
const NO_TOOL_OFFERED: Block = {
  name: 'no_tool_offered',
  description: 'No tool is offered now; the tool calls above were made earlier in the conversation.',
  input_schema: { type: 'object', properties: {} },
};

const holdsToolBlocks = (turns: Turn[]): boolean =>
  turns.some((turn) => turn.content.some((b) => b.type === 'tool_use' || b.type === 'tool_result'));

/** What an OpenAI request asks, once its conversation is in Anthropic turns. */
export type OpenAiRequestParts = {
  system: Block[];
  turns: Turn[];
  maxTokens: number;
  tools: FunctionTool[];
  toolChoice: ToolChoice;
  parallelToolCalls: boolean | null | undefined;
  format: JsonFormat;
  effort: ReasoningEffort | null | undefined;
  temperature: number | null | undefined;
  topP: number | null | undefined;
  stop?: string[] | undefined;
  user?: string | undefined;
  stream: boolean | null | undefined;
};

/** The Messages body of an OpenAI request (Chat Completions or Responses): tools, the JSON format as a forced tool,
 * thinking from the reasoning effort, sampling. */
export function messagesBodyOf(model: ModelEntry, parts: OpenAiRequestParts): TranslatedRequest {
  const tools: Block[] = parts.tools.map((t) => ({
    name: t.name,
    ...(t.description ? { description: t.description } : {}),
    input_schema: t.parameters ?? { type: 'object', properties: {} },
    ...(t.strict ? { strict: true } : {}),
  }));
  const formatTool = formatToolOf(parts.format);
  if (formatTool) tools.push(formatTool);
  // Anthropic refuses thinking with a forced tool (the format's, or the caller's `required` or named function), in a
  // tool loop whose last call comes without its thinking block, and sampling settings other than the defaults with
  // thinking.
  const forced =
    formatTool || parts.toolChoice === 'required' || (parts.toolChoice && typeof parts.toolChoice === 'object');
  const thinking =
    forced || toolLoopWithoutThinking(parts.turns) ? {} : thinkingOf(parts.effort, model, parts.maxTokens);
  const sampling =
    'thinking' in thinking
      ? {}
      : {
          ...(parts.temperature != null ? { temperature: Math.min(parts.temperature, 1) } : {}),
          ...(parts.topP != null ? { top_p: parts.topP } : {}),
        };
  // A choice among no tools says nothing (every offered tool dropped, or `parallel_tool_calls` alone), so it is not sent;
  // with tool calls in the conversation, the stand-in is offered instead and may not be called.
  const standIn = tools.length === 0 && holdsToolBlocks(parts.turns);
  if (standIn) tools.push(NO_TOOL_OFFERED);
  const toolChoice = formatTool
    ? { type: 'tool', name: formatTool.name }
    : standIn
      ? { type: 'none' }
      : tools.length > 0
        ? toolChoiceOf(parts.toolChoice, parts.parallelToolCalls)
        : undefined;
  const body: Record<string, unknown> = {
    model: model.upstreamModel,
    max_tokens: parts.maxTokens,
    messages: parts.turns,
    ...(parts.system.length > 0 ? { system: parts.system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(parts.stop?.length ? { stop_sequences: parts.stop } : {}),
    ...thinking,
    ...sampling,
    ...(parts.user ? { metadata: { user_id: parts.user } } : {}),
    ...(parts.stream ? { stream: true } : {}),
  };
  return { body, ...(formatTool ? { formatTool: String(formatTool.name) } : {}) };
}

/**
 * The Messages body of an OpenAI request whose output limit is `limit` (null or undefined: the caller named none).
 * OpenAI's limits are optional and Anthropic's `max_tokens` is required: with none named, the request asks for the
 * model's whole output (`maxOutputTokens`), as OpenAI serves up to the model's limit (a 4,096 default cut Codex's
 * file-writing tool calls short), and carries the same request at 4,096 for a wallet that cannot hold that much.
 * Thinking budgets follow the limit they are built with, so each body keeps its own below its max_tokens.
 */
export function limitedMessagesBody(
  model: ModelEntry,
  limit: number | null | undefined,
  parts: Omit<OpenAiRequestParts, 'maxTokens'>,
): TranslatedRequest {
  if (limit != null) return messagesBodyOf(model, { ...parts, maxTokens: limit });
  const whole = messagesBodyOf(model, { ...parts, maxTokens: model.maxOutputTokens });
  if (model.maxOutputTokens <= DEFAULT_MAX_TOKENS) return whole;
  const atDefault = messagesBodyOf(model, { ...parts, maxTokens: DEFAULT_MAX_TOKENS });
  return { ...whole, bodyAtDefaultLimit: atDefault.body };
}

/** The request's tool_choice, refused as OpenAI refuses it when it asks for a call no offered function can answer
 * (`required` with no tools, a function not in tools); before, it was dropped and the model answered in text. */
function offeredToolChoice(chat: ChatCompletionRequest): ToolChoice {
  const choice =
    chat.tool_choice && typeof chat.tool_choice === 'object' ? chat.tool_choice.function : chat.tool_choice;
  const tools = chat.tools ?? [];
  if (choice === 'required' && tools.length === 0) {
    throw invalid('tool_choice', '"required" is only allowed when tools are specified (no function is offered)');
  }
  if (choice && typeof choice === 'object' && !tools.some((t) => t.function.name === choice.name)) {
    throw invalid('tool_choice.function.name', `no function ${choice.name} is offered in tools`);
  }
  return choice;
}

export function chatToMessages(chat: ChatCompletionRequest, model: ModelEntry): TranslatedRequest {
  const limitParam = chat.max_completion_tokens != null ? 'max_completion_tokens' : 'max_tokens';
  const limit = chat.max_completion_tokens ?? chat.max_tokens;
  checkOpenAiOutputLimit('ChatCompletions.Invalid', limitParam, limit, model);
  const toolChoice = offeredToolChoice(chat);
  const { system, turns } = turnsOf(chat.messages);
  const format = chat.response_format;
  return limitedMessagesBody(model, limit, {
    system,
    turns,
    tools: (chat.tools ?? []).map((t) => t.function),
    toolChoice,
    parallelToolCalls: chat.parallel_tool_calls,
    format:
      format?.type === 'json_schema' ? format.json_schema : format?.type === 'json_object' ? 'json_object' : undefined,
    effort: chat.reasoning_effort,
    temperature: chat.temperature,
    topP: chat.top_p,
    stop: chat.stop == null ? undefined : typeof chat.stop === 'string' ? [chat.stop] : chat.stop,
    user: chat.user,
    stream: chat.stream,
  });
}
