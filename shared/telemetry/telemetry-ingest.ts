// POST /api/v1/telemetry's work: find the public item, hash the client (never stored raw), enqueue one event job.
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, isNotNull } from 'drizzle-orm';
import { catalogErrors } from '../catalog/catalog-errors.js';
import type { ItemType } from '../catalog/item-types.js';
import type { AppContext } from '../context.js';
import { catalogItems } from '../db/schema/index.js';

export type TelemetryInput = {
  itemType: ItemType;
  slug: string;
  eventType: 'view' | 'install' | 'usage' | 'favorite';
  toolName?: string | undefined;
  clientId?: string | undefined;
};

/** SPEC: the first 16 hex characters of SHA-256 of the client id (or caller IP) and the item. */
export const clientHashOf = (client: string, itemId: string) =>
  createHash('sha256').update(`${client}\u0000${itemId}`).digest('hex').slice(0, 16);

const FOUND_MS = 60_000;
const MISSING_MS = 5_000;
const itemIds = new Map<string, { id: string | null; until: number }>();

async function publicItemId(ctx: AppContext, type: ItemType, slug: string): Promise<string | null> {
  const key = `${type}/${slug}`;
  const hit = itemIds.get(key);
  if (hit && hit.until > Date.now()) return hit.id;
  const [row] = await ctx.db
    .select({ id: catalogItems.id })
    .from(catalogItems)
    .where(and(eq(catalogItems.type, type), eq(catalogItems.slug, slug), isNotNull(catalogItems.currentVersionId)));
  const id = row?.id ?? null;
  if (itemIds.size > 50_000) itemIds.clear();
  itemIds.set(key, { id, until: Date.now() + (id ? FOUND_MS : MISSING_MS) });
  return id;
}

export async function acceptTelemetry(
  ctx: AppContext,
  input: TelemetryInput,
  caller: { ip: string; now?: Date },
): Promise<void> {
  const itemId = await publicItemId(ctx, input.itemType, input.slug);
  if (!itemId) throw catalogErrors.itemNotFound(input.itemType);
  await ctx.queues.add('telemetry', 'event', {
    eventId: randomUUID(),
    itemId,
    itemType: input.itemType,
    eventType: input.eventType,
    clientHash: clientHashOf(input.clientId ?? caller.ip, itemId),
    ...(input.eventType === 'usage' && input.itemType === 'mcp' && input.toolName ? { toolName: input.toolName } : {}),
    occurredAt: (caller.now ?? new Date()).toISOString(),
  });
}
