// Queue depth per queue and state, counted from Redis at scrape time, plus the completed/failed totals that
// the workers count in Redis (BullMQ worker metrics), so one API scrape sees every worker process.
import { Gauge, Registry } from 'prom-client';
import type { QueueProducer } from '../queues/producer.js';
import { type QueueName, queueNames } from '../queues/registry.js';

/** How many of the latest completed jobs per queue the duration figures look at. */
const RECENT_JOBS = 100;

export const depthStates = ['waiting', 'active', 'delayed', 'failed'] as const;

/** A registry of its own per app, because the gauges read this app's queues when scraped. */
export function queueDepthRegistry(queues: QueueProducer, names: readonly QueueName[] = queueNames): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'ockhub_queue_jobs',
    help: 'Jobs in each queue by state (waiting, active, delayed, failed), counted when scraped.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await Promise.all(names.map((name) => queues.queue(name).getJobCounts(...depthStates)));
      names.forEach((queue, i) => {
        for (const state of depthStates) this.set({ queue, state }, counts[i]?.[state] ?? 0);
      });
    },
  });
  new Gauge({
    name: 'ockhub_queue_jobs_finished',
    help: 'Jobs finished per queue and outcome (completed, failed), as counted by the workers in Redis.',
    labelNames: ['queue', 'outcome'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const outcome of ['completed', 'failed'] as const) {
        const metrics = await Promise.all(names.map((name) => queues.queue(name).getMetrics(outcome, 0, 0)));
        names.forEach((queue, i) => {
          this.set({ queue, outcome }, metrics[i]?.meta.count ?? 0);
        });
      }
    },
  });
  new Gauge({
    name: 'ockhub_queue_recent_job_duration_seconds',
    help: `Processing time of the last ${RECENT_JOBS} completed jobs per queue (p50, p95, max), read when scraped.`,
    labelNames: ['queue', 'quantile'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const recent = await Promise.all(
        names.map((name) => queues.queue(name).getJobs(['completed'], 0, RECENT_JOBS - 1)),
      );
      names.forEach((queue, i) => {
        const seconds = (recent[i] ?? [])
          .filter((job) => job?.processedOn && job.finishedOn)
          .map((job) => ((job.finishedOn as number) - (job.processedOn as number)) / 1000)
          .sort((a, b) => a - b);
        if (seconds.length === 0) return;
        const at = (q: number) => seconds[Math.min(seconds.length - 1, Math.floor(q * seconds.length))] as number;
        this.set({ queue, quantile: '0.5' }, at(0.5));
        this.set({ queue, quantile: '0.95' }, at(0.95));
        this.set({ queue, quantile: 'max' }, seconds[seconds.length - 1] as number);
      });
    },
  });
  return registry;
}
