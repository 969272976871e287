// The Anthropic Messages request as the gateway validates it; unknown fields pass through to the upstream.
import { z } from 'zod';

const cacheControl = z
  .object({ type: z.literal('ephemeral'), ttl: z.string().optional() })
  .loose()
  .optional();

const textBlock = z.object({ type: z.literal('text'), text: z.string(), cache_control: cacheControl }).loose();
const imageBlock = z
  .object({
    type: z.literal('image'),
    source: z.discriminatedUnion('type', [
      z.object({
        type: z.literal('base64'),
        media_type: z.enum(['image/jpeg', 'image/png', 'image/gif', 'image/webp']),
        data: z.string().min(1),
      }),
      z.object({ type: z.literal('url'), url: z.url({ protocol: /^https?$/ }) }),
    ]),
    cache_control: cacheControl,
  })
  .loose();
const toolUseBlock = z
  .object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.unknown() })
  .loose();
const toolResultBlock = z
  .object({
    type: z.literal('tool_result'),
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.union([textBlock, imageBlock]))]).optional(),
    is_error: z.boolean().optional(),
    cache_control: cacheControl,
  })
  .loose();
const thinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() }).loose();
const redactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() }).loose();
/** Block types added by the vendor later (documents, search results, …) are passed through unchecked. */
const otherBlock = z
  .object({ type: z.string().refine((t) => !['text', 'image', 'tool_use', 'tool_result', 'thinking'].includes(t)) })
  .loose();

const contentBlock = z.union([
  textBlock,
  imageBlock,
  toolUseBlock,
  toolResultBlock,
  thinkingBlock,
  redactedThinkingBlock,
  otherBlock,
]);

const message = z.object({
  role: z.enum(['user', 'assistant'], { error: 'role must be "user" or "assistant"' }),
  content: z.union([z.string(), z.array(contentBlock).min(1)]),
});

const tool = z.union([
  z
    .object({
      name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/),
      description: z.string().optional(),
      input_schema: z.object({ type: z.literal('object') }).loose(),
      cache_control: cacheControl,
    })
    .loose(),
  // Server tools (`web_search_20250305`, …) carry a versioned type.
  z.object({ type: z.string().regex(/_\d{8}$/), name: z.string() }).loose(),
]);

export const MAX_OUTPUT_TOKENS = 128_000;

export const messagesBody = z
  .object({
    model: z.string({ error: 'model is required' }).min(1),
    messages: z.array(message, { error: 'messages is required' }).min(1),
    max_tokens: z.number({ error: 'max_tokens is required' }).int().min(1).max(MAX_OUTPUT_TOKENS),
    system: z.union([z.string(), z.array(textBlock)]).optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.number().int().min(0).optional(),
    stream: z.boolean().optional(),
    stop_sequences: z.array(z.string().min(1)).max(16).optional(),
    tools: z.array(tool).max(128).optional(),
    tool_choice: z
      .discriminatedUnion('type', [
        z.object({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
        z.object({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
        z.object({
          type: z.literal('tool'),
          name: z.string().min(1),
          disable_parallel_tool_use: z.boolean().optional(),
        }),
        z.object({ type: z.literal('none') }),
      ])
      .optional(),
    thinking: z
      .discriminatedUnion('type', [
        z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }),
        z.object({ type: z.literal('disabled') }),
      ])
      .optional(),
    metadata: z
      .object({ user_id: z.string().max(256).optional() })
      .loose()
      .optional(),
    service_tier: z.string().optional(),
  })
  .loose()
  .superRefine((body, ctx) => {
    if (body.thinking?.type === 'enabled' && body.thinking.budget_tokens >= body.max_tokens) {
      ctx.addIssue({ code: 'custom', path: ['thinking', 'budget_tokens'], message: 'must be less than max_tokens' });
    }
    if (
      body.tool_choice?.type === 'tool' &&
      !body.tools?.some((t) => t.name === (body.tool_choice as { name?: string }).name)
    ) {
      ctx.addIssue({ code: 'custom', path: ['tool_choice', 'name'], message: 'names a tool that is not in tools' });
    }
    // Each tool_result answers a tool_use of the assistant message right before it.
    body.messages.forEach((m, i) => {
      if (typeof m.content === 'string') return;
      const previous = body.messages[i - 1];
      const offered = new Set(
        previous?.role === 'assistant' && Array.isArray(previous.content)
          ? previous.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id)
          : [],
      );
      m.content.forEach((block, j) => {
        if (block.type !== 'tool_result') return;
        const id = (block as { tool_use_id: string }).tool_use_id;
        if (m.role !== 'user' || !offered.has(id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['messages', i, 'content', j, 'tool_use_id'],
            message: `tool_result ${id} has no matching tool_use in the previous assistant message`,
          });
        }
      });
    });
  });

export type MessagesBody = z.infer<typeof messagesBody>;

export const countTokensBody = z
  .object({
    model: z.string({ error: 'model is required' }).min(1),
    messages: z.array(message, { error: 'messages is required' }).min(1),
    system: z.union([z.string(), z.array(textBlock)]).optional(),
    tools: z.array(tool).optional(),
  })
  .loose();
