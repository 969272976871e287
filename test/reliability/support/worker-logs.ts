// Reads a worker process's pino lines (startProcess collects its stdout) to time when it processed jobs.
import type { WorkerProcess } from '../../support/harness.js';

type LogLine = { time?: number; msg?: string; job?: string; queue?: string };

export function logLines(worker: WorkerProcess): LogLine[] {
  return worker.logs
    .join('')
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
}

/** When the worker first finished a job (optionally of one name) at or after `since` (ms since epoch). */
export function firstJobDoneAfter(worker: WorkerProcess, since: number, job?: string): number | undefined {
  return logLines(worker).find(
    (l) => l.msg === 'job done' && (l.time ?? 0) >= since && (job === undefined || l.job === job),
  )?.time;
}
