// The hot path of polling. Thousands of open tasks are polled every few seconds, and on these machines a database
// round trip costs more CPU than the poll itself: the reads and writes of polls that run at about the same time
// (within 10 ms) are batched by DataLoader into one statement each. They use a small pool of
// their own, so polls never queue behind completions waiting on a wallet row lock in the shared pool.
import DataLoader from 'dataloader';
import type pg from 'pg';
import type { AppContext } from '../context.js';
import { createDb } from '../db/client.js';
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

export type PollRecord = { id: string; upstreamTaskId: string; running: boolean; progress: number };

type ViewRow = {
  id: string;
  status: VideoStatus;
  progress: number;
  upstream_task_id: string | null;
  upstream_attempts: number;
  deadline_at: Date;
};

/** How long a batch waits for more polls: small next to the 3-5 s poll window, long enough to gather a few. */
const BATCH_WINDOW_MS = 10;
const MAX_BATCH = 200;
const batchOptions = {
  cache: false,
  maxBatchSize: MAX_BATCH,
  batchScheduleFn: (run: () => void) => setTimeout(run, BATCH_WINDOW_MS),
};

function viewLoader(pool: pg.Pool) {
  return new DataLoader<string, TaskPollView | undefined>(async (ids) => {
    const { rows } = await pool.query<ViewRow>(
      `select id, status, progress, upstream_task_id, upstream_attempts, deadline_at
         from video_tasks where id = any($1::text[])`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => {
      const row = byId.get(id);
      return row
        ? {
            id: row.id,
            status: row.status,
            progress: row.progress,
            upstreamTaskId: row.upstream_task_id,
            upstreamAttempts: row.upstream_attempts,
            deadlineAt: row.deadline_at,
          }
        : undefined;
    });
  }, batchOptions);
}

/**
 * Each poll is a compare-and-set: it applies only while the task is open and still on that upstream task.
 * `running` moves a queued task to in_progress; progress never goes back.
 */
function pollRecorder(pool: pg.Pool) {
  return new DataLoader<PollRecord, boolean>(async (polls) => {
    const { rows } = await pool.query<{ id: string }>(
      `update video_tasks t
          set status = case when p.running then 'in_progress' else t.status end,
              progress = greatest(t.progress, p.progress),
              step = t.step + 1,
              last_polled_at = now(),
              updated_at = now()
         from unnest($1::text[], $2::text[], $3::boolean[], $4::integer[]) as p(id, upstream_task_id, running, progress)
        where t.id = p.id and t.upstream_task_id = p.upstream_task_id and t.status in ('queued', 'in_progress')
        returning t.id`,
      [
        polls.map((p) => p.id),
        polls.map((p) => p.upstreamTaskId),
        polls.map((p) => p.running),
        polls.map((p) => p.progress),
      ],
    );
    const recorded = new Set(rows.map((r) => r.id));
    return polls.map((p) => recorded.has(p.id));
  }, batchOptions);
}

const POLL_POOL_SIZE = 3;
type Loaders = { views: ReturnType<typeof viewLoader>; polls: ReturnType<typeof pollRecorder> };
const loaders = new WeakMap<AppContext, Loaders>();

function loadersOf(ctx: AppContext): Loaders {
  let found = loaders.get(ctx);
  if (!found) {
    const { pool } = createDb(ctx.config.DATABASE_URL, { max: POLL_POOL_SIZE, applicationName: 'ockhub-video-poll' });
    ctx.onClose(() => pool.end());
    found = { views: viewLoader(pool), polls: pollRecorder(pool) };
    loaders.set(ctx, found);
  }
  return found;
}

export function pollViewById(ctx: AppContext, id: string): Promise<TaskPollView | undefined> {
  return loadersOf(ctx).views.load(id);
}

/** True when the poll was recorded; false when the task moved on (cancelled, finished, another upstream task). */
export function recordPoll(ctx: AppContext, poll: PollRecord): Promise<boolean> {
  return loadersOf(ctx).polls.load(poll);
}
