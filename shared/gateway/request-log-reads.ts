// A project's recent gateway requests for people (the console): newest first, paged, optionally one operation.
import { and, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { requestLogs } from '../db/schema/index.js';

export type RequestLog = typeof requestLogs.$inferSelect;

export async function listProjectRequests(
  db: Database,
  projectId: string,
  query: { page: number; size: number; operation?: string | undefined },
): Promise<{ requests: RequestLog[]; total: number }> {
  const where = and(
    eq(requestLogs.projectId, projectId),
    query.operation ? eq(requestLogs.operation, query.operation) : undefined,
  );
  const [requests, [counted]] = await Promise.all([
    db
      .select()
      .from(requestLogs)
      .where(where)
      .orderBy(desc(requestLogs.createdAt), desc(requestLogs.id))
      .limit(query.size)
      .offset((query.page - 1) * query.size),
    db.select({ total: count() }).from(requestLogs).where(where),
  ]);
  return { requests, total: counted?.total ?? 0 };
}
