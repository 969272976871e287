// What the web routes answer (the search provider's normalized answer, the web-fetch workers' pages), as the OpenAPI
// document shows it.
import { z } from 'zod';

export const webSearchAnswer = z
  .object({
    items: z.array(
      z.object({
        url: z.string(),
        title: z.string(),
        content: z.string(),
        score: z.number().min(0).max(1).meta({ description: 'Relevance, best first.' }),
      }),
    ),
    images: z
      .array(z.object({ url: z.string(), description: z.string().optional() }))
      .optional()
      .meta({ description: 'With `includeImages` only.' }),
  })
  .meta({ id: 'WebSearchAnswer' });

export const webFetchAnswer = z
  .object({
    items: z.array(
      z.object({
        url: z.string().meta({ description: 'The URL as requested.' }),
        title: z.string(),
        content: z.string().meta({ description: 'The readable text; empty when the URL failed.' }),
        error: z.string().optional().meta({ description: 'Why this URL gave no text.' }),
      }),
    ),
  })
  .meta({ id: 'WebFetchAnswer' });
