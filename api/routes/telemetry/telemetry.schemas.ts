// The anonymous telemetry event body (seed 01, "Telemetry").
import { z } from 'zod';

export const telemetryBody = z.object({
  itemType: z.enum(['mcp', 'skill', 'agent', 'soul']),
  slug: z.string().min(1).max(64),
  eventType: z.enum(['view', 'install', 'usage', 'favorite']),
  versionId: z.uuid().optional(),
  toolName: z.string().min(1).max(128).optional(),
  clientId: z.string().min(1).max(256).optional(),
});
