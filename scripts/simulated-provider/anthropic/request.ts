// The Messages request as the simulator understands it, validated the way Anthropic answers bad input
// (400 invalid_request_error with a `path: reason` message).
import { z } from 'zod';
import { invalidRequest } from './errors.js';

const cacheControl = z.object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });

const block = z.looseObject({ type: z.string(), cache_control: cacheControl.nullish() });

const message = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(block)]),
});

const tool = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.string() }).optional(),
  cache_control: cacheControl.nullish(),
});

const toolChoice = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('none') }),
]);

const thinking = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.int().min(1024) }),
  z.object({ type: z.literal('disabled') }),
]);

const countTokensShape = {
  model: z.string().min(1),
  messages: z.array(message).min(1),
  system: z.union([z.string(), z.array(block)]).optional(),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
  thinking: thinking.optional(),
};

const countTokensSchema = z.looseObject(countTokensShape);

const messagesSchema = z.looseObject({
  ...countTokensShape,
  max_tokens: z.int().min(1),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.int().min(0).optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
});

export type ContentBlock = z.infer<typeof block>;
export type MessageParam = z.infer<typeof message>;
export type ToolDefinition = z.infer<typeof tool>;
export type CountTokensRequest = z.infer<typeof countTokensSchema>;
export type MessagesRequest = z.infer<typeof messagesSchema>;

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body, { reportInput: true });
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const where = issue.path.length ? issue.path.join('.') : 'body';
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  throw invalidRequest(`${where}: ${missing ? 'Field required' : issue.message}`);
}

export function blocksOf(content: string | ContentBlock[]): ContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

function checkConversation(request: CountTokensRequest): void {
  const hasToolBlocks = request.messages.some((m) =>
    blocksOf(m.content).some((b) => b.type === 'tool_use' || b.type === 'tool_result'),
  );
  if (hasToolBlocks && !request.tools?.length) {
    throw invalidRequest('Requests which include `tool_use` or `tool_result` blocks must define tools.');
  }
  request.messages.forEach((m, i) => {
    blocksOf(m.content).forEach((b, j) => {
      if (b.type === 'text' && (typeof b.text !== 'string' || b.text === '')) {
        throw invalidRequest(`messages.${i}.content.${j}: text content blocks must be non-empty`);
      }
      if (b.type !== 'tool_result') return;
      if (m.role !== 'user')
        throw invalidRequest(`messages.${i}.content.${j}: tool_result blocks belong to user turns`);
      const previous = request.messages[i - 1];
      const ids = previous?.role === 'assistant' ? blocksOf(previous.content).map((p) => p.id) : [];
      if (!ids.includes(b.tool_use_id)) {
        throw invalidRequest(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. ` +
            'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
        );
      }
    });
  });
  const breakpoints =
    (request.tools ?? []).filter((t) => t.cache_control).length +
    (typeof request.system === 'string' ? 0 : (request.system ?? []).filter((b) => b.cache_control).length) +
    request.messages.flatMap((m) => blocksOf(m.content)).filter((b) => b.cache_control).length;
  if (breakpoints > 4) {
    throw invalidRequest(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`);
  }
}

function checkTools(request: CountTokensRequest): void {
  const choice = request.tool_choice;
  if (!choice || choice.type === 'auto' || choice.type === 'none') return;
  if (!request.tools?.length) throw invalidRequest('tool_choice: may only be specified while providing tools.');
  if (choice.type === 'tool' && !request.tools.some((t) => t.name === choice.name)) {
    throw invalidRequest(`tool_choice.name: Tool '${choice.name}' not found in tools.`);
  }
  if (request.thinking?.type === 'enabled') {
    throw invalidRequest('Thinking may not be enabled when tool_choice forces tool use.');
  }
}

export function parseCountTokensRequest(body: unknown): CountTokensRequest {
  const request = parse(countTokensSchema, body);
  checkTools(request);
  checkConversation(request);
  return request;
}

export function parseMessagesRequest(body: unknown): MessagesRequest {
  const request = parse(messagesSchema, body);
  if (request.thinking?.type === 'enabled' && request.thinking.budget_tokens >= request.max_tokens) {
    throw invalidRequest('`max_tokens` must be greater than `thinking.budget_tokens`.');
  }
  if (request.thinking?.type === 'enabled' && request.temperature !== undefined && request.temperature !== 1) {
    throw invalidRequest('`temperature` may only be set to 1 when thinking is enabled.');
  }
  checkTools(request);
  checkConversation(request);
  return request;
}

/** The text of the last user turn (its text blocks joined); the simulator answers from it. */
export function lastUserText(messages: MessageParam[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  return blocksOf(last.content)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}
