// Typed producers: payloads are validated by the registry's schema and stamped with the current correlation id.
import { type JobsOptions, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { currentCorrelationId } from '../logging/correlation.js';
import {
  defaultJobOptions,
  eventsKept,
  type JobName,
  type JobPayload,
  payloadSchema,
  type QueueName,
} from './registry.js';

export class QueueProducer {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    private readonly connection: Redis,
    readonly prefix: string,
  ) {}

  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.connection,
        prefix: this.prefix,
        defaultJobOptions: defaultJobOptions(name),
        streams: { events: { maxLen: eventsKept(name) } },
      });
      queue.on('error', () => {});
      this.queues.set(name, queue);
    }
    return queue;
  }

  async add<Q extends QueueName, J extends JobName<Q>>(
    queue: Q,
    job: J,
    data: JobPayload<Q, J>,
    options?: JobsOptions,
  ) {
    const schema = payloadSchema(queue, job);
    if (!schema) throw new Error(`Queue ${queue} has no job named ${job}`);
    const parsed = schema.parse({ correlationId: currentCorrelationId(), ...(data as object) });
    return this.queue(queue).add(job, parsed, options);
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
