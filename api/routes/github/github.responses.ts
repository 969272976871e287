// What GET /api/v1/github/stars answers, as the OpenAPI document shows it: SPEC section 2's keys, always present
// (null before the first fetch), and `stale`, which the route adds.
import { z } from 'zod';
import { timestamp } from '../../openapi/response-parts.js';

export const starCount = z.object({
  stars: z.number().int().nonnegative().nullable().meta({ description: 'Null until the first fetch.' }),
  repo: z.string().meta({ description: 'GITHUB_REPO, `owner/name`.' }),
  fetchedAt: timestamp.nullable().meta({ description: 'When the count was read from GitHub; null until then.' }),
  stale: z.boolean().meta({ description: 'No count yet, or older than 30 minutes: this request asked for a refresh.' }),
});
