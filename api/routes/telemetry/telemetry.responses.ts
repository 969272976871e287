// What POST /api/v1/telemetry answers, as the OpenAPI document shows it: one event's `{recorded: true}`, or a batch's
// count of recorded events with one result per event, in order. `recorded` is a boolean for one event and a count
// for a batch: both forms are in use, so the document says so rather than changing either.
import { z } from 'zod';

export const telemetryRecorded = z.union([
  z.object({ recorded: z.literal(true) }).meta({ description: 'One event: it was counted.' }),
  z
    .object({
      recorded: z.number().int().nonnegative().meta({ description: 'How many events of the batch were counted.' }),
      results: z.array(
        z.union([
          z.object({ recorded: z.literal(true) }),
          z.object({
            recorded: z.literal(false),
            error: z
              .object({ status: z.number().int(), code: z.string(), message: z.string() })
              .meta({ description: 'Why this event was refused (404 unknown item, 400 invalid, 429 over the limit).' }),
          }),
        ]),
      ),
    })
    .meta({ description: 'A batch `{events: [...]}`: one result per event, in order.' }),
]);
