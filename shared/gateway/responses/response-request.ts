// An OpenAI Responses request as the gateway reads it. What it translates is checked here; what it cannot honour and
// whose absence would change the answer is refused with a 400 naming the parameter (stored state, background runs,
// built-in tools other than an offered web search, moderation, files by id, logprobs). Other top-level parameters,
// known or new, are ignored, as Chat Completions does: only the fields read here are ever translated, so nothing
// unknown reaches the upstream.
import { z } from 'zod';

/** A parameter the gateway refuses unless absent or null (or the one harmless value given). */
const refused = (message: string) => z.null({ error: message }).optional();

const NO_STATE = 'the gateway keeps no responses or conversations (it is stateless): send the whole conversation';
const NO_FILES = 'the gateway keeps no files: send the content itself';

const inputText = z.object({ type: z.literal('input_text'), text: z.string() });
const outputText = z.object({ type: z.literal('output_text'), text: z.string() });
const refusalPart = z.object({ type: z.literal('refusal'), refusal: z.string() });
const inputImage = z.object({
  type: z.literal('input_image'),
  image_url: z.string({ error: `an image needs image_url (an http(s) or data URL; ${NO_FILES})` }).min(1),
  file_id: refused(`file_id is not served: ${NO_FILES}`),
  detail: z.enum(['auto', 'low', 'high', 'original']).nullish(),
});
const inputFile = z.object({
  type: z.literal('input_file'),
  file_data: z.string({ error: 'a file needs file_data, a data:application/pdf;base64 URL' }),
  filename: z.string().nullish(),
  file_id: refused(`file_id is not served: ${NO_FILES}`),
  file_url: refused('file_url is not served: send the PDF as file_data'),
});
const contentPart = z.discriminatedUnion('type', [inputText, outputText, refusalPart, inputImage, inputFile], {
  error: 'a content part must be input_text, output_text, refusal, input_image or input_file',
});
export type ContentPart = z.infer<typeof contentPart>;

const message = z.object({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer'], {
    error: 'role must be one of user, assistant, system, developer',
  }),
  // A string is one text part: as an array, a refused part is named by its own path (a union would not say).
  content: z.preprocess(
    (v) => (typeof v === 'string' ? [{ type: 'input_text', text: v }] : v),
    z.array(contentPart, { error: 'content must be a string or an array of parts' }),
  ),
});
const functionCall = z.object({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  /** The namespace of the function, when it came from a namespace tool. */
  namespace: z.string().nullish(),
  arguments: z.string(),
});
const functionCallOutput = z.object({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(z.discriminatedUnion('type', [inputText, inputImage, inputFile]))]),
});
const reasoning = z.object({
  type: z.literal('reasoning'),
  // Thinking the gateway returned (reasoning-content.ts); any other is dropped.
  encrypted_content: z.string().nullish(),
});
const itemReference = z.object({
  type: z.literal('item_reference'),
  id: z.null({
    error: `item references are not served: ${NO_STATE} (with @ai-sdk/openai: providerOptions.openai.store = false)`,
  }),
});

/** An input item; a message may leave out `type` (OpenAI's "easy input message"). */
const item = z.preprocess(
  (v) => (v && typeof v === 'object' && !('type' in v) && 'role' in v ? { ...v, type: 'message' } : v),
  z.discriminatedUnion('type', [message, functionCall, functionCallOutput, reasoning, itemReference], {
    error:
      'an input item must be a message, function_call, function_call_output or reasoning item (built-in tool ' +
      'calls and item references are not served)',
  }),
);
export type InputItem = z.infer<typeof item>;

/** OpenAI's limits on `metadata`: 16 pairs, keys up to 64 characters, values up to 512. */
export const MAX_METADATA_PAIRS = 16;
/** `metadata` within OpenAI's limits. Its keys are counted before zod walks it (900,000 keys, which the body's own
 * limits let through, held the main loop 8 s through validation and three echoes per stream; security review #120). */
const metadata = z.preprocess(
  (v, ctx) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    let pairs = 0;
    for (const key in v) {
      if (Object.hasOwn(v, key) && ++pairs > MAX_METADATA_PAIRS) {
        ctx.addIssue({ code: 'custom', message: `may hold at most ${MAX_METADATA_PAIRS} pairs` });
        return z.NEVER;
      }
    }
    return v;
  },
  z
    .record(
      z.string().max(64),
      z.string({ error: 'values must be strings' }).max(512, 'values may be at most 512 characters'),
      {
        error: (issue) =>
          issue.code === 'invalid_key' ? 'keys may be at most 64 characters' : 'must be an object of strings',
      },
    )
    .nullish(),
);

const toolName = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, underscores or dashes');
const functionTool = z.object({
  type: z.literal('function'),
  name: toolName,
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});
/** Function tools grouped under a name (Codex sends its sub-agent tools so); the model sees each function under
 * `<namespace>__<name>` (response-tools.ts). */
const namespaceTool = z.object({
  type: z.literal('namespace'),
  name: toolName,
  description: z.string().nullish(),
  tools: z.array(
    z.discriminatedUnion('type', [functionTool], {
      error: 'a namespace may hold only function tools here (custom tools are not served)',
    }),
  ),
});
/** A web search the client offers the model (Codex offers one by default): the gateway runs none, so the model is not
 * offered it and answers without searching, as if it had chosen not to. */
const webSearchTool = z
  .object({
    type: z.enum(['web_search', 'web_search_2025_08_26', 'web_search_preview', 'web_search_preview_2025_03_11']),
  })
  .loose();
const tool = z.discriminatedUnion('type', [functionTool, namespaceTool, webSearchTool], {
  error:
    'only function tools (alone or in a namespace) are served, and web_search is accepted but never run: other ' +
    'built-in tools (file_search, computer, code_interpreter, image_generation, mcp, shell, custom, …) are not',
});
export type ToolParam = z.infer<typeof tool>;

const format = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('text') }),
    z.object({ type: z.literal('json_object') }),
    z.object({
      type: z.literal('json_schema'),
      name: toolName,
      description: z.string().nullish(),
      schema: z.record(z.string(), z.unknown()),
      strict: z.boolean().nullish(),
    }),
  ],
  { error: 'text.format must be text, json_object or json_schema' },
);

/** `include` values the gateway serves: outputs of built-in tools it never runs (nothing to give), and encrypted
 * reasoning (the thinking blocks, to send back; Codex asks for it on every request). */
const harmlessIncludes = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
] as const;

export const responsesBody = z
  .object(
    {
      model: z.string({ error: 'model is required' }).min(1),
      // A string is one user message; as an array, a refused item is named by its own path (a union would not say).
      input: z.preprocess(
        (v) =>
          typeof v === 'string' ? [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: v }] }] : v,
        z.array(item, { error: 'input must be a string or an array of items' }).min(1),
      ),
      instructions: z.string().nullish(),
      max_output_tokens: z.number().int().min(1).nullish(),
      temperature: z.number().min(0).max(2).nullish(),
      top_p: z.number().min(0).max(1).nullish(),
      stream: z.boolean().nullish(),
      stream_options: z.object({ include_obfuscation: z.boolean().optional() }).nullish(),
      tools: z.array(tool).nullish(),
      tool_choice: z
        .union(
          [
            z.enum(['none', 'auto', 'required']),
            // `namespace` names a namespace tool's function (response-tools.ts checks that the function is offered).
            z.object({ type: z.literal('function'), name: z.string().min(1), namespace: z.string().nullish() }),
          ],
          { error: 'tool_choice must be none, auto, required or {"type":"function","name":…,"namespace"?:…}' },
        )
        .nullish(),
      parallel_tool_calls: z.boolean().nullish(),
      text: z.object({ format: format.nullish(), verbosity: z.enum(['low', 'medium', 'high']).nullish() }).nullish(),
      reasoning: z
        .object({
          effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']).nullish(),
          summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
          generate_summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
        })
        .nullish(),
      user: z.string().max(256).optional(),
      metadata,
      store: z.boolean().nullish(),
      safety_identifier: z.string().nullish(),
      prompt_cache_key: z.string().nullish(),
      include: z
        .array(z.enum(harmlessIncludes, { error: `include may name only ${harmlessIncludes.join(', ')}` }))
        .nullish(),
      service_tier: z.enum(['auto', 'default'], { error: 'service_tier must be auto or default' }).nullish(),
      truncation: z
        .literal('disabled', { error: 'truncation "auto" is not served: the gateway never drops input' })
        .nullish(),
      top_logprobs: z.literal(0, { error: 'logprobs are not available from this upstream' }).nullish(),
      previous_response_id: refused(`previous_response_id is not served: ${NO_STATE}`),
      conversation: refused(`conversation is not served: ${NO_STATE}`),
      prompt: refused('stored prompts are not served: send instructions and input'),
      background: z.literal(false, { error: 'background responses are not served: the gateway keeps none' }).nullish(),
      max_tool_calls: refused('max_tool_calls is not served (it limits built-in tools, which are not served)'),
      context_management: refused('context_management is not served'),
      moderation: refused('moderation is not served: the gateway runs no moderation on the input or the output'),
    },
    { error: 'the body must be a JSON object' },
  )
  .loose();

export type ResponsesRequest = z.infer<typeof responsesBody>;
