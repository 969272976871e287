// What the Models API answers (models.presenters.ts), as the OpenAPI document shows it: Anthropic's model object
// and page, or OpenAI's for OpenAI's SDKs.
import { z } from 'zod';
import { capabilities } from '../../../shared/gateway/model-registry.js';

const anthropicModel = z
  .object({
    type: z.literal('model'),
    id: z.string(),
    display_name: z.string(),
    created_at: z.iso.datetime(),
    capabilities: z
      .array(z.enum(capabilities))
      .meta({ description: 'What the gateway serves the model for (beyond the vendor shape).' }),
  })
  .meta({ id: 'Model' });

const openAiModel = z
  .object({
    id: z.string(),
    object: z.literal('model'),
    created: z.number().int().meta({ description: 'Unix seconds.' }),
    owned_by: z.literal('ockhub'),
  })
  .meta({ id: 'OpenAIModel' });

const anthropicPage = z.object({
  data: z.array(anthropicModel),
  has_more: z.boolean(),
  first_id: z.string().nullable().meta({ description: 'null on an empty page.' }),
  last_id: z.string().nullable().meta({ description: 'null on an empty page.' }),
});

const openAiList = z.object({ object: z.literal('list'), data: z.array(openAiModel) });

export const modelList = z.union([anthropicPage, openAiList]);
export const modelAnswer = z.union([anthropicModel, openAiModel]);
