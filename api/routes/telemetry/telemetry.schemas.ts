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
  /**
   * The sender's own id for this event, so that sending it again (a retry after a timeout) counts it once: any
   * non-empty string, kept hashed for 24 hours. Anything else is ignored rather than refused (SPEC names the refusals).
   */
  eventId: z
    .unknown()
    .optional()
    .transform((v) => (typeof v === 'string' && v !== '' ? v : undefined)),
});

/** The event as the OpenAPI document shows it: the same fields, with what a relay needs to know about two of them. */
const documentedEvent = telemetryBody.extend({
  clientId: telemetryBody.shape.clientId.meta({
    description:
      "The user's stable anonymous id (hashed with the item, never stored raw). Without it the caller's address is the " +
      "client: a relay that sends many users' events from one address must send each user's own clientId, or all of " +
      'them count as one client (one view per item and day, one install ever).',
  }),
  eventId: z
    .string()
    .optional()
    .meta({
      description:
        "The sender's own unique id for this event (a UUID, say). An event sent again with the same eventId, clientId " +
        'and item within 24 hours is answered `recorded: true` and counted once: resend a batch whose answer was lost ' +
        'without counting it twice.',
    }),
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
  documentedEvent,
  z.object({
    events: z
      .array(documentedEvent)
      .min(1)
      .max(MAX_BATCH_EVENTS)
      .meta(telemetryBatchBody.shape.events.meta() ?? {}),
  }),
]);
