// The soak's census of its Redis: every key by pattern (ids, hashes, days and numbers replaced), with its count
// and the bytes MEMORY USAGE reports.
import type { Redis } from 'ioredis';

export type PatternStats = { n: number; bytes: number; sample: string };

export function keyPattern(prefix: string, key: string): string {
  return key
    .slice(prefix.length)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\b[0-9a-f]{16,}\b/gi, '<hash>')
    .replace(/video_[0-9A-Za-z]+/g, '<video>')
    .replace(/\d{4}-\d{2}-\d{2}/g, '<day>')
    .replace(/\d+(\.\d+)*/g, '<n>');
}

export async function redisKeysByPattern(
  redis: Redis,
  prefix: string,
): Promise<{ byPattern: Map<string, PatternStats>; bytes: number; keys: number }> {
  const byPattern = new Map<string, PatternStats>();
  let bytes = 0;
  let keys = 0;
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    const pipeline = redis.pipeline();
    for (const key of batch) pipeline.memory('USAGE', key);
    const sizes = await pipeline.exec();
    batch.forEach((key, i) => {
      const pattern = keyPattern(prefix, key);
      const size = Number(sizes?.[i]?.[1] ?? 0);
      const stats = byPattern.get(pattern) ?? { n: 0, bytes: 0, sample: key };
      stats.n++;
      stats.bytes += size;
      byPattern.set(pattern, stats);
      bytes += size;
      keys++;
    });
  } while (cursor !== '0');
  return { byPattern, bytes, keys };
}

/** The table printed at the end: count, bytes and the remaining lifetime of one key, per pattern. */
export async function printKeyPatterns(redis: Redis, byPattern: Map<string, PatternStats>): Promise<void> {
  console.log('\nRedis keys by pattern at the end: count, bytes (MEMORY USAGE), remaining lifetime of one (PTTL):');
  for (const [p, { n, bytes, sample: key }] of [...byPattern].sort((a, b) => b[1].bytes - a[1].bytes)) {
    const ttl = await redis.pttl(key);
    const life = ttl === -1 ? 'no expiry' : ttl === -2 ? 'gone' : `${(ttl / 1000).toFixed(0)} s`;
    console.log(
      `  ${p.padEnd(48)} ${String(n).padStart(7)} ${String(bytes).padStart(10)} B (${Math.round(bytes / n)} B each) ${life}`,
    );
  }
}
