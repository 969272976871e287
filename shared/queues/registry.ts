// Every queue of the platform in one table: its jobs with their zod payload schemas, default options and the
// schedules (cron or interval) that start some of its jobs. The handlers live in workers/<queue>/processor.ts.
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
    schedules: { sweep: { id: 'video-sweep', repeat: { every: 60_000 } } },
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
      batch: payload({
        urls: z.array(z.string().max(4096)).min(1).max(20),
        /** Whose page-cache share the pages count in; optional for batches queued by earlier versions. */
        organizationId: uuid.optional(),
        /** Names the key the pages are handed over in (shared/web/batch-results.ts); without it (a batch queued by
         * an earlier version) the pages are the job's return value. */
        resultId: uuid.optional(),
      }),
    },
    options: { attempts: 1 },
  },
  'skill-bundle': {
    description: 'parse SKILL.md and the stored bundle of a skill version at submit-review',
    jobs: {
      /** `submittedAt`: the version's submit time the job was queued by; optional for jobs of earlier versions. */
      parse: payload({ itemId: uuid, versionId: uuid, submittedAt: z.iso.datetime().optional() }),
    },
    options: { attempts: 3, backoff: { type: 'exponential', delay: 1_000 } },
  },
  telemetry: {
    description:
      'every second: count waiting install and favorite events once ever, flush the counters the intake deduplicated in Redis to PostgreSQL',
    jobs: {
      flush: payload({}),
      /** Queued by versions before the one-step intake (issue 16): a deploy's waiting events are still counted. */
      event: payload({
        eventId: uuid,
        itemId: uuid,
        itemType: z.enum(['mcp', 'skill', 'agent', 'soul']),
        eventType: z.enum(['view', 'install', 'usage', 'favorite']),
        clientHash: z.string().regex(/^[0-9a-f]{16}$/),
        toolName: z.string().max(128).optional(),
        occurredAt: z.iso.datetime(),
      }),
    },
    schedules: { flush: { id: 'telemetry-flush', repeat: { every: 1_000 } } },
    options: { attempts: 8, backoff: { type: 'exponential', delay: 500 } },
  },
  quota: {
    description: 'daily rollover at 00:00 UTC and monthly resets on each project reset day',
    jobs: {
      rollover: payload({ at: z.iso.datetime().optional() }),
    },
    schedules: { rollover: { id: 'quota-rollover', repeat: { pattern: '0 0 * * *' } } },
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
  ledger: {
    description:
      'write settled gateway requests (request logs, Consume records, the wallet row) from Redis to PostgreSQL in batches',
    jobs: {
      write: payload({ organizationId: uuid }),
    },
    options: { attempts: 10, backoff: { type: 'exponential', delay: 1_000 } },
  },
  maintenance: {
    description:
      'GitHub stars refresh, expired sessions and tokens cleanup, the wallet sweep (expired holds, mirror resync, stranded ledger entries), orphaned temp files',
    jobs: {
      'github-stars': payload({}),
      'expire-credentials': payload({}),
      'wallet-sweep': payload({}),
      'temp-files': payload({}),
    },
    schedules: {
      'github-stars': { id: 'github-stars', repeat: { every: 30 * 60_000 } },
      'wallet-sweep': { id: 'wallet-sweep', repeat: { every: 60_000 } },
      'expire-credentials': { id: 'expire-credentials', repeat: { pattern: '17 * * * *' } },
      'temp-files': { id: 'temp-files', repeat: { pattern: '*/15 * * * *' } },
    },
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5_000 } },
  },
} as const satisfies Record<string, QueueDefinition>;

/** Cron pattern evaluated in UTC, or a fixed interval in ms; `id` names the BullMQ job scheduler. */
export type ScheduleDeclaration = { id: string; repeat: { pattern: string } | { every: number } };

type QueueDefinition = {
  description: string;
  jobs: Record<string, z.ZodObject>;
  schedules?: Record<string, ScheduleDeclaration>;
  options: Pick<DefaultJobOptions, 'attempts' | 'backoff'>;
};

export type QueueName = keyof typeof queueDefinitions;
export type JobName<Q extends QueueName> = keyof (typeof queueDefinitions)[Q]['jobs'] & string;
type JobSchema<Q extends QueueName, J extends JobName<Q>> = (typeof queueDefinitions)[Q]['jobs'][J] extends z.ZodType
  ? (typeof queueDefinitions)[Q]['jobs'][J]
  : never;
/** What a producer passes. */
export type JobPayload<Q extends QueueName, J extends JobName<Q>> = z.input<JobSchema<Q, J>>;
/** What a handler receives: the payload as the runtime parsed it. */
export type ParsedPayload<Q extends QueueName, J extends JobName<Q>> = z.output<JobSchema<Q, J>>;

export const queueNames = Object.keys(queueDefinitions) as QueueName[];

type ScheduledJobs<Q extends QueueName> = (typeof queueDefinitions)[Q] extends { schedules: infer S } ? keyof S : never;
/** A schedule names a declared job of its queue: a misspelt one does not compile. */
export const scheduledJobsAreDeclared: {
  [Q in QueueName]: [Exclude<ScheduledJobs<Q>, JobName<Q>>] extends [never] ? true : never;
} = {
  video: true,
  'video-rehost': true,
  'web-fetch': true,
  'skill-bundle': true,
  telemetry: true,
  quota: true,
  alerts: true,
  ledger: true,
  maintenance: true,
};

/**
 * Finished jobs are kept for a bounded time and number, so Redis never fills with history. A completed job serves
 * only the dashboard's recent history: 100 per queue (a per-second scheduler reaches that in under two minutes,
 * so the plateau comes early; 1,000 took 17). Failures are what operators investigate: more, and longer.
 */
export const retention = {
  removeOnComplete: { age: 3_600, count: 100 },
  removeOnFail: { age: 7 * 24 * 3_600, count: 5_000 },
} as const;

/**
 * Entries kept in a queue's events stream (BullMQ's default is 10,000). The stream is a live notification channel:
 * only web-fetch has a reader (each API process waits there for its batches), so it keeps enough for a reader that
 * falls behind; the others keep what the dashboard shows. A completed event carries the job's return value, so a
 * job must return something small: a web-fetch batch returns where its pages wait (shared/web/batch-results.ts).
 */
export const eventsKept = (queue: QueueName) => (queue === 'web-fetch' ? 1_000 : 100);

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
