// Every queue of the platform in one table: its jobs with their zod payload schemas, default options and schedules.
import type { DefaultJobOptions } from 'bullmq';
import { z } from 'zod';

/** Every payload may carry the correlation id of the request that caused it. */
const payload = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ ...shape, correlationId: z.string().max(128).optional() });

const uuid = z.uuid();

export const queueDefinitions = {
  video: {
    description:
      'submit to the upstream, poll every 3-5 s, retry a failed task once, hand finished videos to video-rehost; re-chain lost tasks',
    jobs: {
      advance: payload({ taskId: z.string().min(1).max(64) }),
      'forward-cancel': payload({ taskId: z.string().min(1).max(64) }),
      sweep: payload({}),
    },
    options: { attempts: 5, backoff: { type: 'exponential', delay: 2_000 } },
  },
  'video-rehost': {
    description: 'stream a finished upstream video into object storage, complete the task and settle its charge',
    jobs: {
      rehost: payload({ taskId: z.string().min(1).max(64) }),
    },
    options: { attempts: 5, backoff: { type: 'exponential', delay: 2_000 } },
  },
  'web-fetch': {
    description: 'fetch and extract a batch of URLs for a waiting API request',
    jobs: {
      batch: payload({ urls: z.array(z.string().max(4096)).min(1).max(20) }),
    },
    options: { attempts: 1 },
  },
  'skill-bundle': {
    description: 'parse SKILL.md and the stored bundle of a skill version at submit-review',
    jobs: {
      parse: payload({ itemId: uuid, versionId: uuid }),
    },
    options: { attempts: 3, backoff: { type: 'exponential', delay: 1_000 } },
  },
  telemetry: {
    description: 'count anonymous usage events (deduplicated) and flush the counters to PostgreSQL in batches',
    jobs: {
      event: payload({
        eventId: uuid,
        itemId: uuid,
        itemType: z.enum(['mcp', 'skill', 'agent', 'soul']),
        eventType: z.enum(['view', 'install', 'usage', 'favorite']),
        clientHash: z.string().regex(/^[0-9a-f]{16}$/),
        toolName: z.string().max(128).optional(),
        occurredAt: z.iso.datetime(),
      }),
      flush: payload({}),
    },
    options: { attempts: 8, backoff: { type: 'exponential', delay: 500 } },
  },
  quota: {
    description: 'daily rollover at 00:00 UTC and monthly resets on each project reset day',
    jobs: {
      rollover: payload({ at: z.iso.datetime().optional() }),
    },
    options: { attempts: 5, backoff: { type: 'exponential', delay: 5_000 } },
  },
  alerts: {
    description: 'balance-alert e-mails and signed webhooks',
    jobs: {
      'balance-alert': payload({ alertId: uuid }),
      'test-alert': payload({ alertId: uuid }),
    },
    options: { attempts: 6, backoff: { type: 'exponential', delay: 2_000 } },
  },
  maintenance: {
    description: 'GitHub stars refresh, expired sessions and tokens cleanup, expired wallet reservations',
    jobs: {
      'github-stars': payload({}),
      'expire-credentials': payload({}),
      'wallet-sweep': payload({}),
    },
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5_000 } },
  },
} as const satisfies Record<string, QueueDefinition>;

type QueueDefinition = {
  description: string;
  jobs: Record<string, z.ZodObject>;
  options: Pick<DefaultJobOptions, 'attempts' | 'backoff'>;
};

export type QueueName = keyof typeof queueDefinitions;
export type JobName<Q extends QueueName> = keyof (typeof queueDefinitions)[Q]['jobs'] & string;
export type JobPayload<Q extends QueueName, J extends JobName<Q>> = z.input<
  (typeof queueDefinitions)[Q]['jobs'][J] extends z.ZodType ? (typeof queueDefinitions)[Q]['jobs'][J] : never
>;

export const queueNames = Object.keys(queueDefinitions) as QueueName[];

/** Finished jobs are kept for a bounded time and number, so Redis never fills with history. */
export const retention = {
  removeOnComplete: { age: 3_600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600, count: 5_000 },
} as const;

export function defaultJobOptions(queue: QueueName): DefaultJobOptions {
  return { ...queueDefinitions[queue].options, ...retention };
}

export function payloadSchema<Q extends QueueName>(queue: Q, job: string): z.ZodObject | undefined {
  const jobs = queueDefinitions[queue].jobs as Record<string, z.ZodObject>;
  return jobs[job];
}

/** Parses WORKER_QUEUES ("all" or a comma list); unknown names are an error naming them. */
export function selectQueues(setting: string): QueueName[] {
  const wanted = setting
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (wanted.length === 0 || wanted.includes('all')) return [...queueNames];
  const unknown = wanted.filter((w) => !(queueNames as string[]).includes(w));
  if (unknown.length > 0) {
    throw new Error(`WORKER_QUEUES names unknown queues: ${unknown.join(', ')} (known: ${queueNames.join(', ')})`);
  }
  return wanted as QueueName[];
}
