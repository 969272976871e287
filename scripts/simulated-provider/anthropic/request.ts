// The Messages request as the simulator understands it, validated the way Anthropic answers bad input
// (400 invalid_request_error with a `path: reason` message). Top-level fields are strict, as Anthropic's are
// ("Extra inputs are not permitted"); beta fields need their beta named in `anthropic-beta`.
import { z } from 'zod';
import { checkBetaFields } from './beta-features.js';
import { checkConversation, checkTools } from './conversation-rules.js';
import { invalidRequest } from './errors.js';

const cacheControl = z.object({ type: z.literal('ephemeral'), ttl: z.enum(['5m', '1h']).optional() });

const block = z.looseObject({ type: z.string(), cache_control: cacheControl.nullish() });

const message = z.object({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(block)]),
});

const tool = z.looseObject({
  type: z.string().optional(),
  name: z.string().min(1),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.string() }).optional(),
  max_uses: z.int().min(1).optional(),
  cache_control: cacheControl.nullish(),
});

const toolChoice = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('none') }),
]);

// Anthropic: `enabled` (manual budget), `adaptive` (the model decides, steered by output_config.effort),
// `disabled`, and `between_tools`.
const thinkingDisplay = z.enum(['summarized', 'omitted']).nullish();
const thinking = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.int().min(1024), display: thinkingDisplay }),
  z.object({ type: z.literal('adaptive'), display: thinkingDisplay }),
  z.object({ type: z.literal('between_tools') }),
  z.object({ type: z.literal('disabled') }),
]);

const outputConfig = z.strictObject({
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).nullish(),
  format: z.strictObject({ type: z.literal('json_schema'), schema: z.looseObject({}) }).nullish(),
});

const contextManagement = z.strictObject({
  edits: z
    .array(
      z.discriminatedUnion('type', [
        z.looseObject({ type: z.literal('clear_tool_uses_20250919') }),
        z.looseObject({
          type: z.literal('clear_thinking_20251015'),
          keep: z
            .union([
              z.literal('all'),
              z.object({ type: z.literal('all') }),
              z.object({ type: z.literal('thinking_turns'), value: z.int().min(1) }),
            ])
            .optional(),
        }),
        z.looseObject({ type: z.literal('compact_20260112') }),
      ]),
    )
    .optional(),
});

const countTokensShape = {
  model: z.string().min(1),
  messages: z.array(message).min(1),
  system: z.union([z.string(), z.array(block)]).optional(),
  tools: z.array(tool).optional(),
  tool_choice: toolChoice.optional(),
  thinking: thinking.optional(),
  output_config: outputConfig.optional(),
  context_management: contextManagement.nullish(),
  mcp_servers: z.array(z.looseObject({ type: z.literal('url'), url: z.url(), name: z.string() })).optional(),
  cache_control: cacheControl.nullish(),
};

const countTokensSchema = z.strictObject(countTokensShape);

const messagesSchema = z.strictObject({
  ...countTokensShape,
  max_tokens: z.int().min(1),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.int().min(0).optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  container: z.union([z.string(), z.looseObject({})]).nullish(),
  service_tier: z.enum(['auto', 'standard_only']).optional(),
  speed: z.enum(['standard', 'fast']).nullish(),
  inference_geo: z.string().nullish(),
  /** Models to try, in order, when the request's own cannot serve it (here: a prompt with `[overloaded]`). */
  fallbacks: z.array(z.strictObject({ model: z.string().min(1), max_tokens: z.int().min(1).optional() })).optional(),
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
  if (issue.code === 'unrecognized_keys') {
    const where = [...issue.path, issue.keys[0]].join('.');
    throw invalidRequest(`${where}: Extra inputs are not permitted`);
  }
  const where = issue.path.length ? issue.path.join('.') : 'body';
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  throw invalidRequest(`${where}: ${missing ? 'Field required' : issue.message}`);
}

export function blocksOf(content: string | ContentBlock[]): ContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The beta names of an `anthropic-beta` header (comma-separated). */
export function betasOf(header: string | undefined): Set<string> {
  return new Set(
    (header ?? '')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
  );
}

export function parseCountTokensRequest(body: unknown, betas: Set<string> = new Set()): CountTokensRequest {
  const request = parse(countTokensSchema, body);
  checkBetaFields(request, betas);
  checkTools(request);
  checkConversation(request);
  return request;
}

export function thinkingIsOn(request: CountTokensRequest): boolean {
  return request.thinking !== undefined && request.thinking.type !== 'disabled';
}

export function parseMessagesRequest(body: unknown, betas: Set<string> = new Set()): MessagesRequest {
  const request = parse(messagesSchema, body);
  checkBetaFields(request, betas);
  if (request.thinking?.type === 'enabled' && request.thinking.budget_tokens >= request.max_tokens) {
    throw invalidRequest('`max_tokens` must be greater than `thinking.budget_tokens`.');
  }
  if (thinkingIsOn(request) && request.temperature !== undefined && request.temperature !== 1) {
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
