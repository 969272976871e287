// The cron work of the platform, upserted as BullMQ job schedulers from one place under a short Redis lock.
import type { Redis } from 'ioredis';
import type { QueueProducer } from './producer.js';
import type { QueueName } from './registry.js';

export type Schedule = {
  id: string;
  queue: QueueName;
  job: string;
  /** Cron pattern evaluated in UTC, or a fixed interval in ms. */
  repeat: { pattern: string } | { every: number };
};

/** Only schedules whose job has a processor are listed: a tick nobody processes would wait forever. */
export const schedules: Schedule[] = [
  { id: 'quota-rollover', queue: 'quota', job: 'rollover', repeat: { pattern: '0 0 * * *' } },
  { id: 'github-stars', queue: 'maintenance', job: 'github-stars', repeat: { every: 30 * 60_000 } },
  { id: 'telemetry-flush', queue: 'telemetry', job: 'flush', repeat: { every: 1_000 } },
  { id: 'video-sweep', queue: 'video', job: 'sweep', repeat: { every: 60_000 } },
  { id: 'wallet-sweep', queue: 'maintenance', job: 'wallet-sweep', repeat: { every: 60_000 } },
  { id: 'expire-credentials', queue: 'maintenance', job: 'expire-credentials', repeat: { pattern: '17 * * * *' } },
];

export async function registerSchedules(producer: QueueProducer, redis: Redis, prefix: string, list = schedules) {
  const lock = `${prefix}:locks:schedules`;
  const acquired = await redis.set(lock, String(process.pid), 'PX', 30_000, 'NX');
  if (!acquired) return { registered: 0, skipped: true };
  try {
    for (const s of list) {
      const repeat = 'pattern' in s.repeat ? { pattern: s.repeat.pattern, tz: 'UTC' } : { every: s.repeat.every };
      await producer.queue(s.queue).upsertJobScheduler(s.id, repeat, { name: s.job, data: {} });
    }
    return { registered: list.length, skipped: false };
  } finally {
    await redis.del(lock);
  }
}
