// The Anthropic Messages request as the gateway validates it: only what the gateway owns (the model it maps, the
// messages it estimates, the max_tokens that sizes the reservation, the stream flag that picks the relay). Every
// other field, role, block type and thinking type goes to the upstream untouched, which answers for it.
import { z } from 'zod';

const forwarded = (what: string) => z.unknown().optional().describe(`${what}; forwarded to the upstream as sent.`);

export const messagesBody = z
  .object(
    {
      model: z.string({ error: 'model is required' }).min(1),
      messages: z.array(z.unknown(), { error: 'messages must be an array' }),
      max_tokens: z
        .number({
          error: (issue) =>
            issue.input === undefined
              ? 'max_tokens is required (a positive integer)'
              : 'max_tokens must be a positive integer',
        })
        .int({ error: 'max_tokens must be a positive integer' })
        .min(1, { error: 'max_tokens must be a positive integer' }),
      stream: z.boolean({ error: 'stream must be a boolean' }).optional(),
      system: forwarded('A string or text blocks'),
      tools: forwarded('Client and server tools'),
      tool_choice: forwarded('How tools may be used'),
      thinking: forwarded('`enabled` (budget_tokens), `adaptive`, `disabled`, or any newer type'),
      output_config: forwarded('Effort and output format'),
      context_management: forwarded('Context editing (beta)'),
      metadata: forwarded('Request metadata'),
    },
    { error: 'the body must be a JSON object' },
  )
  .loose();

export type MessagesBody = z.infer<typeof messagesBody>;

export const countTokensBody = z
  .object(
    {
      model: z.string({ error: 'model is required' }).min(1),
      messages: z.array(z.unknown(), { error: 'messages must be an array' }),
      system: forwarded('A string or text blocks'),
      tools: forwarded('Client and server tools'),
    },
    { error: 'the body must be a JSON object' },
  )
  .loose();
