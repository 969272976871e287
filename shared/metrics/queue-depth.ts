// Queue depth per queue and state, counted from Redis at scrape time, plus the completed/failed totals that
// the workers count in Redis (BullMQ worker metrics), so one API scrape sees every worker process.
import { Gauge, Registry } from 'prom-client';
import type { QueueProducer } from '../queues/producer.js';
import { type QueueName, queueNames } from '../queues/registry.js';

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
  return registry;
}
