// OpenAI Chat Completions request → Anthropic Messages request. System and developer messages become the system
// prompt; tool messages become tool_result blocks of one user turn; tool_calls become tool_use blocks; a JSON
// response_format becomes a forced tool whose input is the answer; reasoning_effort turns thinking on.
import { badRequest } from '../../errors/app-error.js';
import {
  JsonBudget,
  type JsonExcess,
  MAX_JSON_CONTAINERS,
  MAX_JSON_DEPTH,
  MAX_JSON_VALUES,
} from '../../validation/json-shape.js';
import type { ModelEntry } from '../model-registry.js';
import type { ChatCompletionRequest, ChatMessage } from './chat-request.js';

/** OpenAI's max_tokens is optional, Anthropic's is required: what an answer may use when the caller sets none. */
export const DEFAULT_MAX_TOKENS = 4096;
/** Thinking budgets for models that take `budget_tokens` rather than an effort. */
const budgetByEffort = { low: 1024, medium: 4096, high: 16_000, xhigh: 32_000, max: 64_000 } as const;
const effortOf = { minimal: 'low', low: 'low', medium: 'medium', high: 'high', xhigh: 'xhigh', max: 'max' } as const;

type Block = Record<string, unknown>;
type Turn = { role: 'user' | 'assistant'; content: Block[] };

export type TranslatedRequest = {
  body: Record<string, unknown>;
  /** The tool standing for a JSON response_format: its input is the answer's content. */
  formatTool?: string;
};

const invalid = (param: string, message: string) => badRequest('ChatCompletions.Invalid', `${param}: ${message}`);

function textOf(content: string | { text: string }[]): string {
  return typeof content === 'string' ? content : content.map((p) => p.text).join('\n');
}

function imageBlock(url: string, param: string): Block {
  const data = /^data:(image\/(?:jpeg|png|gif|webp));base64,(.+)$/s.exec(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1], data: data[2] } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw invalid(param, 'an image must be an http(s) URL or a data:image/(jpeg|png|gif|webp);base64 URL');
}

function userBlocks(message: Extract<ChatMessage, { role: 'user' }>, i: number): Block[] {
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return message.content.map((part, j): Block => {
    const param = `messages[${i}].content[${j}]`;
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'image_url') return imageBlock(part.image_url.url, param);
    const pdf = /^data:application\/pdf;base64,(.+)$/s.exec(part.file.file_data ?? '');
    if (!pdf) throw invalid(param, 'a file part must carry file_data as a data:application/pdf;base64 URL');
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf[1] } };
  });
}

/** What the tool calls' arguments (JSON inside strings, which the body's own scan skips) may not exceed in all. */
const argumentsExcess: Record<JsonExcess, string> = {
  depth: `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`,
  containers: `must not bring the tool calls' arguments past ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} objects and arrays in all`,
  values: `must not bring the tool calls' arguments past ${MAX_JSON_VALUES.toLocaleString('en-US')} values in all`,
};

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
    // JSON inside a string escapes the body's scan: deeper input overflowed JSON.stringify of the upstream body, and
    // arguments full of `{}` cost JSON.parse seconds (security review #89).
    const excess = argumentsBudget.charge(Buffer.from(call.function.arguments, 'utf8'));
    if (excess) throw invalid(param, argumentsExcess[excess]);
    let input: unknown;
    try {
      input = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
    } catch {
      throw invalid(param, 'must be a JSON object');
    }
    blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
  }
  if (blocks.length === 0) throw invalid(`messages[${i}]`, 'an assistant message needs content or tool_calls');
  return blocks;
}

/** The conversation as Anthropic turns: consecutive turns of one role are merged, so tool results answering one
 * assistant turn land in the single user turn right after it, as Anthropic requires. */
function turnsOf(messages: ChatMessage[]): { system: Block[]; turns: Turn[] } {
  const system: Block[] = [];
  const turns: Turn[] = [];
  const argumentsBudget = new JsonBudget();
  const push = (role: Turn['role'], content: Block[]) => {
    const last = turns.at(-1);
    // One by one: a spread of hundreds of thousands of parts overflows the call stack.
    if (last?.role === role) for (const block of content) last.content.push(block);
    else turns.push({ role, content });
  };
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

function toolChoiceOf(chat: ChatCompletionRequest): Block | undefined {
  const choice = chat.tool_choice;
  const parallel = chat.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any', ...parallel };
  if (choice && typeof choice === 'object') return { type: 'tool', name: choice.function.name, ...parallel };
  if (choice === 'auto' || chat.parallel_tool_calls === false) return { type: 'auto', ...parallel };
  return undefined;
}

function formatToolOf(chat: ChatCompletionRequest): Block | undefined {
  const format = chat.response_format;
  if (format?.type === 'json_schema') {
    return {
      name: format.json_schema.name,
      description: format.json_schema.description ?? 'Answer with the JSON this tool takes as input.',
      input_schema: format.json_schema.schema ?? { type: 'object' },
    };
  }
  if (format?.type === 'json_object') {
    return { name: 'json_object', description: 'Answer with a JSON object.', input_schema: { type: 'object' } };
  }
  return undefined;
}

function thinkingOf(chat: ChatCompletionRequest, model: ModelEntry, maxTokens: number): Block {
  const effort = chat.reasoning_effort;
  if (!effort || effort === 'none' || !model.supportsThinking) return {};
  const level = effortOf[effort];
  if (model.thinkingMode === 'adaptive') return { thinking: { type: 'adaptive' }, output_config: { effort: level } };
  const budget = Math.min(budgetByEffort[level], maxTokens - 1);
  return budget >= 1024 ? { thinking: { type: 'enabled', budget_tokens: budget } } : {};
}

export function chatToMessages(chat: ChatCompletionRequest, model: ModelEntry): TranslatedRequest {
  const { system, turns } = turnsOf(chat.messages);
  const maxTokens = chat.max_completion_tokens ?? chat.max_tokens ?? DEFAULT_MAX_TOKENS;
  const tools: Block[] = (chat.tools ?? []).map((t) => ({
    name: t.function.name,
    ...(t.function.description ? { description: t.function.description } : {}),
    input_schema: t.function.parameters ?? { type: 'object', properties: {} },
    ...(t.function.strict ? { strict: true } : {}),
  }));
  const formatTool = formatToolOf(chat);
  if (formatTool) tools.push(formatTool);
  // Anthropic refuses thinking with a forced tool, and sampling settings other than the defaults with thinking.
  const thinking = formatTool ? {} : thinkingOf(chat, model, maxTokens);
  const sampling =
    'thinking' in thinking
      ? {}
      : {
          ...(chat.temperature != null ? { temperature: Math.min(chat.temperature, 1) } : {}),
          ...(chat.top_p != null ? { top_p: chat.top_p } : {}),
        };
  const toolChoice = formatTool ? { type: 'tool', name: formatTool.name } : toolChoiceOf(chat);
  const stop = chat.stop == null ? undefined : typeof chat.stop === 'string' ? [chat.stop] : chat.stop;
  const body: Record<string, unknown> = {
    model: model.upstreamModel,
    max_tokens: maxTokens,
    messages: turns,
    ...(system.length > 0 ? { system } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(toolChoice ? { tool_choice: toolChoice } : {}),
    ...(stop?.length ? { stop_sequences: stop } : {}),
    ...thinking,
    ...sampling,
    ...(chat.user ? { metadata: { user_id: chat.user } } : {}),
    ...(chat.stream ? { stream: true } : {}),
  };
  return { body, ...(formatTool ? { formatTool: String(formatTool.name) } : {}) };
}
