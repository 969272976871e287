// Job instruments recorded by the worker process around each processor call: how long jobs of each queue take
// and how many attempts fail. Queue depth is counted elsewhere (queue-depth.ts, at the API's scrape time).
import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './metrics.js';

const jobDuration = new Histogram({
  name: 'ockhub_job_duration_seconds',
  help: 'Time a worker spent on one job attempt (payload check and processor), by queue and outcome.',
  labelNames: ['queue', 'outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
  registers: [metricsRegistry],
});

const jobFailures = new Counter({
  name: 'ockhub_job_failures_total',
  help: 'Job attempts that threw in this worker process, by queue (attempts BullMQ will retry included).',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

/** Runs one job attempt and records its duration with outcome "completed", "rescheduled" or "failed"; rethrows. */
export async function timeJob<T>(queue: string, attempt: () => Promise<T>): Promise<T> {
  const end = jobDuration.startTimer({ queue });
  try {
    const result = await attempt();
    end({ outcome: 'completed' });
    return result;
  } catch (err) {
    // A job that re-schedules itself (the video chain) throws DelayedError: an attempt done, not failed.
    if ((err as Error).name === 'DelayedError') {
      end({ outcome: 'rescheduled' });
      throw err;
    }
    end({ outcome: 'failed' });
    jobFailures.inc({ queue });
    throw err;
  }
}
