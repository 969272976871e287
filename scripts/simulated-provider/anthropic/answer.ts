// Composes the assistant message the simulator answers with: an optional thinking block, the server tools it
// runs, then a text answer derived from the last user turn (or a forced tool call, or JSON in the requested
// output format), cut by stop sequences and `max_tokens`.
import { canonicalJson, sha256, stableId } from '../deterministic.js';
import type { CacheUsage } from './prompt-cache.js';
import { blocksOf, lastUserText, type MessagesRequest, thinkingIsOn } from './request.js';
import {
  isServerToolResult,
  runServerTools,
  type ServerToolResultBlock,
  type ServerToolUseBlock,
} from './server-tools.js';
import { countInputTokens, tokensOfText } from './token-count.js';
import { toolInputFor } from './tool-input.js';

export type TextBlock = { type: 'text'; text: string };
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string };
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
export type AnswerBlock = TextBlock | ThinkingBlock | ToolUseBlock | ServerToolUseBlock | ServerToolResultBlock;
export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use';

export type Usage = {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
  server_tool_use: { web_search_requests: number; web_fetch_requests: number } | null;
  service_tier: 'standard';
};

export type AssistantMessage = {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: AnswerBlock[];
  stop_reason: StopReason;
  stop_sequence: string | null;
  usage: Usage;
  /** Present when the request asked for context management (no edit is ever needed on simulated prompts). */
  context_management?: { applied_edits: unknown[] };
};

const EXCERPT_CHARS = 160;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

/** The request without the fields that must not change the answer (streaming is only a transport). */
function answerSeed(request: MessagesRequest): string {
  const { stream: _stream, metadata: _metadata, ...rest } = request;
  return canonicalJson(rest);
}

function toolResultReply(request: MessagesRequest): string | undefined {
  const last = request.messages.at(-1);
  if (last?.role !== 'user') return undefined;
  const results = blocksOf(last.content).filter((b) => b.type === 'tool_result');
  if (results.length === 0) return undefined;
  const calls = request.messages.flatMap((m) => blocksOf(m.content)).filter((b) => b.type === 'tool_use');
  const parts = results.map((r) => {
    const name = calls.find((c) => c.id === r.tool_use_id)?.name ?? 'tool';
    const content =
      typeof r.content === 'string'
        ? r.content
        : Array.isArray(r.content)
          ? r.content.map((c: { text?: string }) => c.text ?? '').join(' ')
          : '';
    return `the ${String(name)} tool ${r.is_error ? 'failed with' : 'returned'} "${excerpt(content)}"`;
  });
  return `Thanks, ${parts.join(' and ')}. Based on that result, this is the simulated provider's final answer, streamed in several chunks so a relay can be seen passing it on.`;
}

function plainReply(userText: string): string {
  return (
    `You said: "${excerpt(userText)}". This answer comes from the ockhub simulated provider, ` +
    'which replies deterministically: the same request always gets the same words, ' +
    'sent in several chunks when streamed so a relay can be seen passing them on one by one.'
  );
}

function thinkingText(userText: string): string {
  return `The user wrote "${excerpt(userText)}". I should answer plainly and say that this reply is simulated.`;
}

function forcedTool(request: MessagesRequest) {
  const choice = request.tool_choice;
  if (choice?.type === 'any') return request.tools?.[0];
  if (choice?.type === 'tool') return request.tools?.find((t) => t.name === choice.name);
  return undefined;
}

function cutAtStopSequence(text: string, stopSequences: string[] = []) {
  let best: { index: number; sequence: string } | undefined;
  for (const sequence of stopSequences) {
    const index = sequence ? text.indexOf(sequence) : -1;
    if (index >= 0 && (!best || index < best.index)) best = { index, sequence };
  }
  return best;
}

/** Output tokens of a generated block; a server tool's result is read as input, not generated. */
export function tokensOfAnswerBlock(block: AnswerBlock): number {
  if (block.type === 'text') return tokensOfText(block.text);
  if (block.type === 'thinking') return tokensOfText(block.thinking);
  if (isServerToolResult(block)) return 0;
  return tokensOfText(block.name + JSON.stringify(block.input));
}

/** Thinking happens when it is on, except that adaptive thinking at low effort skips simple prompts (all of ours). */
function thinks(request: MessagesRequest): boolean {
  if (!thinkingIsOn(request)) return false;
  return !(request.thinking?.type === 'adaptive' && request.output_config?.effort === 'low');
}

export function composeAnswer(request: MessagesRequest, cache: CacheUsage): AssistantMessage {
  const seed = answerSeed(request);
  const userText = lastUserText(request.messages);
  const planned: AnswerBlock[] = [];
  if (thinks(request)) {
    const chars = request.thinking?.type === 'enabled' ? request.thinking.budget_tokens * 4 : undefined;
    const omitted = request.thinking && 'display' in request.thinking && request.thinking.display === 'omitted';
    const thinking = omitted ? '' : thinkingText(userText).slice(0, chars);
    const signature = Buffer.concat([sha256(`sig|${seed}`), sha256(`sig2|${seed}`)]).toString('base64');
    planned.push({ type: 'thinking', thinking, signature });
  }
  const tool = forcedTool(request);
  const servers = tool ? undefined : runServerTools(request, userText, seed);
  planned.push(...(servers?.blocks ?? []));
  const format = request.output_config?.format;
  if (tool) {
    planned.push({
      type: 'tool_use',
      id: stableId('toolu_', seed),
      name: tool.name,
      input: toolInputFor(tool.input_schema),
    });
  } else if (format) {
    planned.push({ type: 'text', text: JSON.stringify(toolInputFor(format.schema)) });
  } else {
    planned.push({ type: 'text', text: toolResultReply(request) ?? plainReply(userText) });
  }

  let budget = request.max_tokens;
  let stopReason: StopReason = tool ? 'tool_use' : 'end_turn';
  let stopSequence: string | null = null;
  const content: AnswerBlock[] = [];
  for (const block of planned) {
    if (block.type === 'text') {
      const stop = cutAtStopSequence(block.text, request.stop_sequences);
      const fits = budget * 4;
      if (stop && stop.index <= fits) {
        content.push({ type: 'text', text: block.text.slice(0, stop.index) });
        stopReason = 'stop_sequence';
        stopSequence = stop.sequence;
        break;
      }
    }
    const cost = tokensOfAnswerBlock(block);
    if (cost <= budget) {
      content.push(block);
      budget -= cost;
      continue;
    }
    stopReason = 'max_tokens';
    if (block.type === 'text' && budget > 0) content.push({ ...block, text: block.text.slice(0, budget * 4) });
    if (block.type === 'thinking' && budget > 0)
      content.push({ ...block, thinking: block.thinking.slice(0, budget * 4) });
    break;
  }

  const cacheCreation = cache.cacheCreation5mTokens + cache.cacheCreation1hTokens;
  // A server tool's result is read back as input by the pass that follows it.
  const toolResultTokens = content
    .filter(isServerToolResult)
    .reduce((sum, b) => sum + tokensOfText(canonicalJson(b)), 0);
  return {
    id: stableId('msg_', seed),
    type: 'message',
    role: 'assistant',
    model: request.model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopSequence,
    usage: {
      input_tokens: Math.max(0, countInputTokens(request) - cache.cacheReadTokens - cacheCreation) + toolResultTokens,
      cache_creation_input_tokens: cacheCreation,
      cache_read_input_tokens: cache.cacheReadTokens,
      cache_creation: {
        ephemeral_5m_input_tokens: cache.cacheCreation5mTokens,
        ephemeral_1h_input_tokens: cache.cacheCreation1hTokens,
      },
      output_tokens: content.reduce((sum, b) => sum + tokensOfAnswerBlock(b), 0),
      server_tool_use: servers?.blocks.length
        ? { web_search_requests: servers.webSearchRequests, web_fetch_requests: servers.webFetchRequests }
        : null,
      service_tier: 'standard',
    },
    ...(request.context_management ? { context_management: { applied_edits: [] } } : {}),
  };
}
