// The anonymous telemetry event body (seed 01, "Telemetry"), and the batch form for redistributors.
import { z } from 'zod';

export const MAX_BATCH_EVENTS = 100;

export const telemetryBody = z.object({
  itemType: z.enum(['mcp', 'skill', 'agent', 'soul']),
  slug: z.string().min(1).max(64),
  eventType: z.enum(['view', 'install', 'usage', 'favorite']),
  versionId: z.uuid().optional(),
  toolName: z.string().min(1).max(128).optional(),
  clientId: z.string().min(1).max(256).optional(),
});

/** Each entry is read on its own (a bad one is refused alone); the batch itself must be 1–100 entries. */
export const telemetryBatchBody = z.object({
  events: z
    .array(z.unknown())
    .min(1)
    .max(MAX_BATCH_EVENTS)
    .meta({
      description: `1–${MAX_BATCH_EVENTS} events, each in the single-event form.`,
    }),
});

/** What the route reads: one event, or `{events:[…]}`. The batch is documented with its events' schema (a generated
 * client types them), though each is validated on its own when it is read. */
export const telemetryRequestBody = z.union([
  telemetryBody,
  z.object({
    events: z
      .array(telemetryBody)
      .min(1)
      .max(MAX_BATCH_EVENTS)
      .meta(telemetryBatchBody.shape.events.meta() ?? {}),
  }),
]);
