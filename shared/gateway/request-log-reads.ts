// A project's recent gateway requests for people (the console): newest first, paged, optionally one operation.
import { count, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { requestLogs } from '../db/schema/index.js';

/**
 * How many of a project's newest requests the list reaches. A request log is written for every gateway request, so a
 * busy project holds millions; counting and offsetting over all of them cost any member about a second of the
 * database per call (a million rows: ~170 ms for the count, ~680 ms for the deepest page). Within the window every
 * call reads at most this many index entries. Older requests stay in the table (usage history, the ledger).
 */
export const REQUEST_LIST_WINDOW = 10_000;

export type RequestLog = typeof requestLogs.$inferSelect;

export async function listProjectRequests(
  db: Database,
  projectId: string,
  query: { page: number; size: number; operation?: string | undefined },
): Promise<{ requests: RequestLog[]; total: number }> {
  const recent = db
    .select()
    .from(requestLogs)
    .where(eq(requestLogs.projectId, projectId))
    .orderBy(desc(requestLogs.createdAt), desc(requestLogs.id))
    .limit(REQUEST_LIST_WINDOW)
    .as('recent');
  const where = query.operation ? eq(recent.operation, query.operation) : undefined;
  const [requests, [counted]] = await Promise.all([
    db
      .select()
      .from(recent)
      .where(where)
      .orderBy(desc(recent.createdAt), desc(recent.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ total: count() }).from(recent).where(where),
  ]);
  return { requests, total: counted?.total ?? 0 };
}
