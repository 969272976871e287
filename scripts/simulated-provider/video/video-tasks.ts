// Video tasks of both wire formats. A task's status is computed from its age (no timer per task, so thousands of
// tasks cost nothing): queued for the first quarter of the duration, running until 100%, then succeeded or failed.
import { has } from '../triggers.js';

export type VideoFlavor = 'seedance' | 'openai';
export type VideoStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export type VideoTask<P = unknown> = {
  id: string;
  flavor: VideoFlavor;
  model: string;
  prompt: string;
  params: P;
  createdAtMs: number;
  durationMs: number;
  fails: boolean;
  cancelledAtMs?: number;
};

export type VideoPhase = {
  status: VideoStatus;
  /** 0 while queued, rising while running, 100 once succeeded. */
  progress: number;
  /** When the current status began. */
  sinceMs: number;
};

const QUEUED_SHARE = 0.25;

export class VideoTaskStore {
  private readonly tasks = new Map<string, VideoTask>();
  /** Prompts whose `[fail-once]` task already failed (process lifetime). */
  private readonly failedOnce = new Set<string>();

  constructor(
    private readonly durationMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  create<P>(flavor: VideoFlavor, id: string, model: string, prompt: string, params: P): VideoTask<P> {
    let fails = has(prompt, 'fail');
    if (!fails && has(prompt, 'failOnce') && !this.failedOnce.has(prompt)) {
      this.failedOnce.add(prompt);
      fails = true;
    }
    const task: VideoTask<P> = {
      id,
      flavor,
      model,
      prompt,
      params,
      createdAtMs: this.now(),
      durationMs: this.durationMs,
      fails,
    };
    this.tasks.set(id, task);
    return task;
  }

  get<P>(flavor: VideoFlavor, id: string): VideoTask<P> | undefined {
    const task = this.tasks.get(id);
    return task?.flavor === flavor ? (task as VideoTask<P>) : undefined;
  }

  list<P>(flavor: VideoFlavor): VideoTask<P>[] {
    return [...this.tasks.values()].filter((t) => t.flavor === flavor) as VideoTask<P>[];
  }

  phase(task: VideoTask): VideoPhase {
    const queuedUntil = task.createdAtMs + task.durationMs * QUEUED_SHARE;
    const endsAt = task.createdAtMs + task.durationMs;
    const at = Math.min(this.now(), task.cancelledAtMs ?? Number.POSITIVE_INFINITY);
    const progressAt = (t: number) =>
      Math.min(99, Math.max(1, Math.floor(((t - queuedUntil) / (endsAt - queuedUntil)) * 100)));
    if (task.cancelledAtMs !== undefined) {
      return { status: 'cancelled', progress: at < queuedUntil ? 0 : progressAt(at), sinceMs: task.cancelledAtMs };
    }
    if (at < queuedUntil) return { status: 'queued', progress: 0, sinceMs: task.createdAtMs };
    if (at < endsAt) return { status: 'running', progress: progressAt(at), sinceMs: queuedUntil };
    if (task.fails) return { status: 'failed', progress: 99, sinceMs: endsAt };
    return { status: 'succeeded', progress: 100, sinceMs: endsAt };
  }

  /** Cancels a queued or running task; any other task is removed. Returns false for an unknown task. */
  cancelOrDelete(flavor: VideoFlavor, id: string): 'cancelled' | 'deleted' | false {
    const task = this.get(flavor, id);
    if (!task) return false;
    const { status } = this.phase(task);
    if (status === 'queued' || status === 'running') {
      task.cancelledAtMs = this.now();
      return 'cancelled';
    }
    this.tasks.delete(id);
    return 'deleted';
  }

  delete(flavor: VideoFlavor, id: string): boolean {
    if (!this.get(flavor, id)) return false;
    return this.tasks.delete(id);
  }
}
