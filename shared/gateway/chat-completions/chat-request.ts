// An OpenAI Chat Completions request as the gateway reads it: what it translates is checked here (a 400 in
// OpenAI's shape names the parameter); parameters with no Messages equivalent are accepted and ignored, except
// those whose answer could not be honoured (`n` > 1, `logprobs`).
import { z } from 'zod';

const textPart = z.object({ type: z.literal('text'), text: z.string() });
const imagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});
const filePart = z.object({
  type: z.literal('file'),
  file: z.object({ file_data: z.string().optional(), file_id: z.string().optional(), filename: z.string().optional() }),
});
const refusalPart = z.object({ type: z.literal('refusal'), refusal: z.string() });
const textOnly = z.union([z.string(), z.array(textPart)]);

const toolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

const message = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.literal('system'), content: textOnly, name: z.string().optional() }),
    z.object({ role: z.literal('developer'), content: textOnly, name: z.string().optional() }),
    z.object({
      role: z.literal('user'),
      content: z.union([z.string(), z.array(z.discriminatedUnion('type', [textPart, imagePart, filePart]))]),
      name: z.string().optional(),
    }),
    z.object({
      role: z.literal('assistant'),
      content: z.union([z.string(), z.array(z.union([textPart, refusalPart]))]).nullish(),
      tool_calls: z.array(toolCall).nullish(),
      refusal: z.string().nullish(),
      name: z.string().optional(),
      // The answer's signed thinking, sent back as it came (LiteLLM's convention): the blocks to-messages.ts can
      // replay are kept, any other entry is dropped, as `reasoning_content` is.
      thinking_blocks: z.array(z.unknown()).nullish(),
    }),
    z.object({ role: z.literal('tool'), tool_call_id: z.string().min(1), content: textOnly }),
  ],
  { error: 'role must be one of system, developer, user, assistant, tool' },
);

const functionTool = z.object({
  type: z.literal('function'),
  function: z.object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, underscores or dashes'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

export const chatCompletionBody = z
  .object(
    {
      model: z.string({ error: 'model is required' }).min(1),
      messages: z.array(message, { error: 'messages must be an array' }).min(1),
      max_tokens: z.number().int().min(1).nullish(),
      max_completion_tokens: z.number().int().min(1).nullish(),
      temperature: z.number().min(0).max(2).nullish(),
      top_p: z.number().min(0).max(1).nullish(),
      stop: z.union([z.string(), z.array(z.string()).max(4)]).nullish(),
      stream: z.boolean().nullish(),
      stream_options: z.object({ include_usage: z.boolean().optional() }).loose().nullish(),
      tools: z.array(functionTool).nullish(),
      tool_choice: z
        .union([
          z.enum(['none', 'auto', 'required']),
          z.object({ type: z.literal('function'), function: z.object({ name: z.string().min(1) }) }),
        ])
        .nullish(),
      parallel_tool_calls: z.boolean().nullish(),
      response_format: z
        .discriminatedUnion('type', [
          z.object({ type: z.literal('text') }),
          z.object({ type: z.literal('json_object') }),
          z.object({
            type: z.literal('json_schema'),
            json_schema: z.object({
              name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, underscores or dashes'),
              description: z.string().optional(),
              schema: z.record(z.string(), z.unknown()).optional(),
              strict: z.boolean().nullish(),
            }),
          }),
        ])
        .nullish(),
      reasoning_effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
      n: z.literal(1, { error: 'only n = 1 is supported' }).nullish(),
      logprobs: z.literal(false, { error: 'logprobs are not available from this upstream' }).nullish(),
      user: z.string().max(256).optional(),
    },
    { error: 'the body must be a JSON object' },
  )
  .loose();

export type ChatCompletionRequest = z.infer<typeof chatCompletionBody>;
export type ChatMessage = ChatCompletionRequest['messages'][number];
