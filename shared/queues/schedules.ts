// The cron work of the platform, as the registry declares it, upserted as BullMQ job schedulers under a short Redis
// lock.
import type { Redis } from 'ioredis';
import type { QueueProducer } from './producer.js';
import { type QueueName, queueDefinitions, queueNames, type ScheduleDeclaration } from './registry.js';

export type Schedule = { id: string; queue: QueueName; job: string; repeat: ScheduleDeclaration['repeat'] };

/** Every schedule the registry declares, in declaration order. */
export const schedules: Schedule[] = queueNames.flatMap((queue) => {
  const declared = (queueDefinitions[queue] as { schedules?: Record<string, ScheduleDeclaration> }).schedules ?? {};
  return Object.entries(declared).map(([job, { id, repeat }]) => ({ id, queue, job, repeat }));
});

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
