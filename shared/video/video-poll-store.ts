// The hot path of polling, in two named (server-side prepared) statements over the raw pool: thousands of open
// tasks are polled every few seconds, and a query builder per poll costs more CPU than the poll itself.
import type pg from 'pg';
import type { VideoStatus } from '../db/schema/index.js';

/** What a poll needs of a task; the request (with its reference images) is read only to submit. */
export type TaskPollView = {
  id: string;
  status: VideoStatus;
  progress: number;
  upstreamTaskId: string | null;
  upstreamAttempts: number;
  deadlineAt: Date;
};

export async function pollViewById(pool: pg.Pool, id: string): Promise<TaskPollView | undefined> {
  const { rows } = await pool.query<{
    id: string;
    status: VideoStatus;
    progress: number;
    upstream_task_id: string | null;
    upstream_attempts: number;
    deadline_at: Date;
  }>({
    name: 'video_poll_view',
    text: 'select id, status, progress, upstream_task_id, upstream_attempts, deadline_at from video_tasks where id = $1',
    values: [id],
  });
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    upstreamTaskId: row.upstream_task_id,
    upstreamAttempts: row.upstream_attempts,
    deadlineAt: row.deadline_at,
  };
}

/**
 * Records one poll of the task's current upstream task as a compare-and-set: only while the task is open and still
 * on that upstream task. `running` moves a queued task to in_progress; progress never goes back. False when the
 * task moved on (cancelled, finished, or on another upstream task) meanwhile.
 */
export async function recordPoll(
  pool: pg.Pool,
  poll: { id: string; upstreamTaskId: string; running: boolean; progress: number },
): Promise<boolean> {
  const { rowCount } = await pool.query({
    name: 'video_record_poll',
    text: `update video_tasks
              set status = case when $3::boolean then 'in_progress' else status end,
                  progress = greatest(progress, $4::integer),
                  step = step + 1,
                  last_polled_at = now(),
                  updated_at = now()
            where id = $1 and upstream_task_id = $2 and status in ('queued', 'in_progress')`,
    values: [poll.id, poll.upstreamTaskId, poll.running, poll.progress],
  });
  return rowCount === 1;
}
