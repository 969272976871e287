// Reads and compare-and-set transitions of video tasks: every state change is one UPDATE … WHERE status is one
// of the expected states, so a duplicate or late step can never move a task twice.
import { and, desc, eq, getTableColumns, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database, DbExecutor } from '../db/client.js';
import { type VideoStatus, videoTasks } from '../db/schema/index.js';

/** A task as every reader sees it: all but the inline images' data URLs, which only a submission reads. */
export type VideoTask = Omit<typeof videoTasks.$inferSelect, 'inlineImages'>;
export type NewVideoTask = typeof videoTasks.$inferInsert;

const { inlineImages: _inlineImages, ...taskColumns } = getTableColumns(videoTasks);

export const openStatuses: VideoStatus[] = ['queued', 'in_progress'];
export const isOpen = (status: VideoStatus) => openStatuses.includes(status);

/** What clears a task's inline images: part of every UPDATE after which no submission can need them. */
const inlineImagesDropped = { inlineImages: null, inlineImageBytes: 0 } as const;

export async function taskById(db: Database, id: string): Promise<VideoTask | undefined> {
  const [row] = await db.select(taskColumns).from(videoTasks).where(eq(videoTasks.id, id));
  return row;
}

/** The data URLs of a task's inline images; null once they were dropped (or the task has none). */
export async function inlineImagesOf(db: Database, id: string): Promise<string[] | null> {
  const [row] = await db
    .select({ inlineImages: videoTasks.inlineImages })
    .from(videoTasks)
    .where(eq(videoTasks.id, id));
  return row?.inlineImages ?? null;
}

export async function taskOfProject(db: Database, id: string, projectId: string): Promise<VideoTask | undefined> {
  const [row] = await db
    .select(taskColumns)
    .from(videoTasks)
    .where(and(eq(videoTasks.id, id), eq(videoTasks.projectId, projectId)));
  return row;
}

/** A project's tasks, newest first (ids sort by creation time), `limit + 1` rows to tell if more follow. */
export async function tasksOfProject(db: Database, projectId: string, page: { limit: number; after?: string }) {
  return db
    .select(taskColumns)
    .from(videoTasks)
    .where(and(eq(videoTasks.projectId, projectId), page.after ? lt(videoTasks.id, page.after) : undefined))
    .orderBy(desc(videoTasks.id))
    .limit(page.limit + 1);
}

export async function taskByIdempotencyKey(db: Database, projectId: string, key: string, since: Date) {
  const [row] = await db
    .select(taskColumns)
    .from(videoTasks)
    .where(
      and(eq(videoTasks.projectId, projectId), eq(videoTasks.idempotencyKey, key), gt(videoTasks.createdAt, since)),
    );
  return row;
}

/** Frees a key whose task is older than the idempotency window, so the key can name a new task. */
export async function expireIdempotencyKey(db: Database, projectId: string, key: string, before: Date) {
  await db
    .update(videoTasks)
    .set({ idempotencyKey: null })
    .where(
      and(
        eq(videoTasks.projectId, projectId),
        eq(videoTasks.idempotencyKey, key),
        sql`${videoTasks.createdAt} <= ${before}`,
      ),
    );
}

/** Inserts the task; undefined when its idempotency key was taken concurrently. */
export async function insertTask(db: DbExecutor, task: NewVideoTask): Promise<VideoTask | undefined> {
  const [row] = await db.insert(videoTasks).values(task).onConflictDoNothing().returning(taskColumns);
  return row;
}

/**
 * Inserts a task that holds inline images unless its organization's tasks would then hold more than `maxBytes` of
 * them: `{held}` (the bytes already held) when refused. A transaction-scoped advisory lock per organization makes the
 * sum and the insert one step for concurrent creates; creates without inline images never take it.
 */
export async function insertTaskWithinInlineBound(
  db: Database,
  task: NewVideoTask & { inlineImageBytes: number },
  maxBytes: number,
): Promise<VideoTask | undefined | { held: number }> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`video-inline:${task.organizationId}`}, 0))`);
    const [sum] = await tx
      .select({ held: sql<string>`coalesce(sum(${videoTasks.inlineImageBytes}), 0)` })
      .from(videoTasks)
      .where(and(eq(videoTasks.organizationId, task.organizationId), sql`${videoTasks.inlineImageBytes} > 0`));
    const held = Number(sum?.held ?? 0);
    if (held + task.inlineImageBytes > maxBytes) return { held };
    return insertTask(tx, task);
  });
}

type Change = Partial<Omit<NewVideoTask, 'id'>>;

/**
 * The CAS: applies `change` only while the task's status is one of `from` (and `extra` holds); the new row or
 * undefined. A change to a final status also drops the inline images in the same UPDATE: no submission follows it.
 */
export async function transition(
  db: Database,
  id: string,
  from: VideoStatus[],
  change: Change,
  extra?: ReturnType<typeof eq>,
): Promise<VideoTask | undefined> {
  const final = change.status !== undefined && !isOpen(change.status);
  const [row] = await db
    .update(videoTasks)
    .set({ ...change, ...(final ? inlineImagesDropped : {}), updatedAt: new Date() })
    .where(and(eq(videoTasks.id, id), inArray(videoTasks.status, from), extra))
    .returning(taskColumns);
  return row;
}

/**
 * Records the upstream task that replaces `previous` (null for the first); undefined when the task moved on. The
 * last upstream task a task may have (`last`) drops its inline images in the same UPDATE: nothing will submit again.
 */
export function recordUpstreamTask(db: Database, task: VideoTask, upstreamTaskId: string, last: boolean) {
  return transition(
    db,
    task.id,
    openStatuses,
    {
      upstreamTaskId,
      upstreamAttempts: sql`${videoTasks.upstreamAttempts} + 1` as unknown as number,
      ...(last ? inlineImagesDropped : {}),
    },
    task.upstreamTaskId === null
      ? isNull(videoTasks.upstreamTaskId)
      : eq(videoTasks.upstreamTaskId, task.upstreamTaskId),
  );
}

export async function markChargeClosed(db: Database, id: string): Promise<void> {
  await db.update(videoTasks).set({ chargeClosed: true }).where(eq(videoTasks.id, id));
}

/**
 * Claims the upstream cancellation of a task: true for exactly one of several concurrent callers (the cancel job,
 * the chain, the sweep), so the upstream sees one cancel. A caller whose cancel call then fails gives the claim
 * back (`releaseUpstreamCancel`) for the sweep to try again.
 */
export async function claimUpstreamCancel(db: Database, id: string): Promise<boolean> {
  const claimed = await db
    .update(videoTasks)
    .set({ upstreamCancelled: true })
    .where(and(eq(videoTasks.id, id), eq(videoTasks.upstreamCancelled, false)))
    .returning({ id: videoTasks.id });
  return claimed.length > 0;
}

export async function releaseUpstreamCancel(db: Database, id: string): Promise<void> {
  await db.update(videoTasks).set({ upstreamCancelled: false }).where(eq(videoTasks.id, id));
}
