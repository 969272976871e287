// OpenAI Responses request → Anthropic Messages request. `instructions` and system/developer messages become the
// system prompt; tools as response-tools.ts names them; function_call items become tool_use blocks and function_call_output items tool_result blocks,
// consecutive items of one role merged into one turn; reasoning items become thinking blocks again when they carry
// encrypted_content the gateway returned (reasoning-content.ts), and are dropped otherwise (a summary alone cannot be
// replayed, as Chat Completions drops reasoning_content); the rest is shared with Chat Completions (messagesBodyOf).
import { badRequest } from '../../errors/app-error.js';
import { JsonBudget } from '../../validation/json-shape.js';
import {
  type Block,
  imageBlock,
  limitedMessagesBody,
  mergedTurns,
  pdfBlock,
  type Refuse,
  type TranslatedRequest,
  toolInputOf,
} from '../chat-completions/to-messages.js';
import type { ModelEntry } from '../model-registry.js';
import { checkOpenAiOutputLimit } from '../output-limit.js';
import { thinkingBlockOf } from './reasoning-content.js';
import type { ContentPart, ResponsesRequest } from './response-request.js';
import { messagesToolsOf, type ToolNames, toolChoiceOf, upstreamToolName } from './response-tools.js';

const refuse: Refuse = (param, message) => badRequest('Responses.Invalid', `${param}: ${message}`);

function partBlock(part: ContentPart, param: string, role: string): Block {
  if (part.type === 'input_text' || part.type === 'output_text') return { type: 'text', text: part.text };
  if (part.type === 'refusal') {
    if (role !== 'assistant') throw refuse(param, 'a refusal part belongs to an assistant message');
    return { type: 'text', text: part.refusal };
  }
  if (role !== 'user') throw refuse(param, `${part.type} parts belong to user messages`);
  return part.type === 'input_image'
    ? imageBlock(part.image_url, param, refuse)
    : pdfBlock(part.file_data, param, refuse);
}

const textOf = (content: ContentPart[], param: string, role: string): string =>
  content
    .map((p, j) => {
      const block = partBlock(p, `${param}.content.${j}`, role);
      if (block.type !== 'text') throw refuse(`${param}.content.${j}`, `${p.type} parts belong to user messages`);
      return String(block.text);
    })
    .join('\n');

function conversationOf(request: ResponsesRequest) {
  const system: Block[] = request.instructions ? [{ type: 'text', text: request.instructions }] : [];
  const { turns, push } = mergedTurns();
  const argumentsBudget = new JsonBudget();
  for (const [i, item] of request.input.entries()) {
    const param = `input.${i}`;
    if (item.type === 'message') {
      if (item.role === 'system' || item.role === 'developer') {
        const text = textOf(item.content, param, item.role);
        if (text) system.push({ type: 'text', text });
      } else {
        push(
          item.role,
          item.content.map((p, j) => partBlock(p, `${param}.content.${j}`, item.role)),
        );
      }
    } else if (item.type === 'function_call') {
      const input = toolInputOf(item.arguments, `${param}.arguments`, argumentsBudget, refuse);
      push('assistant', [
        { type: 'tool_use', id: item.call_id, name: upstreamToolName(item.name, item.namespace), input },
      ]);
    } else if (item.type === 'function_call_output') {
      const content =
        typeof item.output === 'string'
          ? item.output
          : item.output.map((p, j) => partBlock(p, `${param}.output.${j}`, 'user'));
      push('user', [{ type: 'tool_result', tool_use_id: item.call_id, content }]);
    } else if (item.type === 'reasoning' && item.encrypted_content) {
      const block = thinkingBlockOf(item.encrypted_content, `${param}.encrypted_content`, refuse);
      if (block) push('assistant', [block]);
    }
    // Other reasoning items: dropped (see the file's first lines); item references never pass the schema.
  }
  return { system, turns };
}

export function responsesToMessages(
  request: ResponsesRequest,
  model: ModelEntry,
): TranslatedRequest & { toolNames: ToolNames } {
  checkOpenAiOutputLimit('Responses.Invalid', 'max_output_tokens', request.max_output_tokens, model);
  const { tools, names } = messagesToolsOf(request.tools ?? []);
  const toolChoice = toolChoiceOf(request.tool_choice, { tools, names }, refuse);
  const { system, turns } = conversationOf(request);
  const format = request.text?.format;
  const translated = limitedMessagesBody(model, request.max_output_tokens, {
    system,
    turns,
    tools,
    toolChoice,
    parallelToolCalls: request.parallel_tool_calls,
    format: format?.type === 'json_schema' ? format : format?.type === 'json_object' ? 'json_object' : undefined,
    effort: request.reasoning?.effort,
    temperature: request.temperature,
    topP: request.top_p,
    user: request.user,
    stream: request.stream,
  });
  return { ...translated, toolNames: names };
}
