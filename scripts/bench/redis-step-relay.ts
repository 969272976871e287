// The floor of issue 16's design: the bare relay (bare-relay.ts) plus what any gateway built that way must pay on
// every request, one Redis Lua step before the upstream call (admit) and one after the answer (settle), over an
// auto-pipelining ioredis connection, with no authentication, validation, accounting or logging. The gateway's
// distance from this floor is what its own code costs; the floor's distance from the relay is what the design costs.
// Run as a process (`UPSTREAM_URL=… REDIS_URL=… tsx scripts/bench/redis-step-relay.ts`): prints its URL.
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { startBareRelay } from './bare-relay.js';

// A hold and its release on one hash, each one Lua call, as the wallet mirror's admit and settle are.
const admitLua = `
redis.call('HSETNX', KEYS[1], 'a', '1000000000000')
local available = tonumber(redis.call('HGET', KEYS[1], 'a'))
if available < tonumber(ARGV[2]) then return {'balance'} end
redis.call('HINCRBY', KEYS[1], 'a', -tonumber(ARGV[2]))
redis.call('HSET', KEYS[1], 'h:' .. ARGV[1], ARGV[2])
return {'admitted'}`;
const settleLua = `
local held = tonumber(redis.call('HGET', KEYS[1], 'h:' .. ARGV[1]) or '0')
redis.call('HDEL', KEYS[1], 'h:' .. ARGV[1])
redis.call('HINCRBY', KEYS[1], 'a', held - tonumber(ARGV[2]))
return {'settled'}`;

type StepRedis = Redis & {
  benchAdmit(key: string, id: string, amount: string): Promise<string[]>;
  benchSettle(key: string, id: string, actual: string): Promise<string[]>;
};

export function startRedisStepRelay(upstream: string, redisUrl: string, port = 0) {
  const redis = new Redis(redisUrl, { enableAutoPipelining: true }) as StepRedis;
  redis.defineCommand('benchAdmit', { numberOfKeys: 1, lua: admitLua });
  redis.defineCommand('benchSettle', { numberOfKeys: 1, lua: settleLua });
  const walletKey = `bench-floor:${randomBytes(4).toString('hex')}`;
  let next = 0;
  return startBareRelay(upstream, port, {
    before: async () => {
      const holdId = String(next++);
      const [step] = await redis.benchAdmit(walletKey, holdId, '100');
      if (step !== 'admitted') throw new Error(`the floor's admit step answered ${step}`);
      return holdId;
    },
    after: async (holdId) => {
      await redis.benchSettle(walletKey, holdId, '10');
    },
    close: async () => {
      await redis.del(walletKey);
      redis.disconnect();
    },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const relay = await startRedisStepRelay(
    String(process.env.UPSTREAM_URL),
    String(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
    Number(process.env.PORT ?? 0),
  );
  process.stdout.write(`listening ${relay.url}\n`);
}
