// Telemetry bookkeeping: once-per-client events (install, favorite), applied counter flushes, per-tool MCP usage.
import { integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { catalogItems } from './catalog.js';
import { createdAt } from './columns.js';

/** One row per client and item for the events that count once ever; `eventId` makes a retried job idempotent. */
export const telemetryOnceEvents = pgTable(
  'telemetry_once_events',
  {
    itemId: uuid('item_id')
      .notNull()
      .references(() => catalogItems.id, { onDelete: 'cascade' }),
    eventType: text('event_type').notNull(),
    clientHash: text('client_hash').notNull(),
    eventId: uuid('event_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.eventType, t.clientHash] })],
);

/** Every batch of counter deltas applied to PostgreSQL, so a retried flush applies nothing twice. */
export const telemetryFlushes = pgTable('telemetry_flushes', {
  id: uuid('id').primaryKey(),
  createdAt: createdAt(),
});

export const mcpToolUsage = pgTable(
  'mcp_tool_usage',
  {
    itemId: uuid('item_id')
      .notNull()
      .references(() => catalogItems.id, { onDelete: 'cascade' }),
    toolName: text('tool_name').notNull(),
    usageCount: integer('usage_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.toolName] })],
);
