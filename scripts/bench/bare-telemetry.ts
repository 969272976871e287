// The floor the telemetry intake is measured against: Express reading the JSON body, validating it with the same
// schema as POST /api/v1/telemetry and answering {recorded:true}; no rate limit, no Redis, no logging. Run as a
// process (`tsx scripts/bench/bare-telemetry.ts`): prints its URL. (It exports its start function, as every helper
// here does, so that `npm run bench` does not take it for a benchmark and wait on it forever.)
// With REDIS_URL set it is the design's floor instead: the same route plus the one Redis step issue 16 allows an
// event (a Lua call keeping a per-address sliding window and counting the item, grouped with the events that arrive
// while a call is in flight, as the intake's are: shared/redis/group-commit.ts), nothing else.
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { Redis } from 'ioredis';
import { telemetryBody } from '../../api/routes/telemetry/telemetry.schemas.js';
import { submitToGroup } from '../../shared/redis/group-commit.js';

// KEYS: the item's counter, then each event's address window. ARGV: now (ms), limit, then each event's member.
const windowAndCountLua = `
local now, limit, out = tonumber(ARGV[1]), tonumber(ARGV[2]), {}
for i = 2, #KEYS do
  local w = KEYS[i]
  redis.call('ZREMRANGEBYSCORE', w, '-inf', now - 60000)
  if redis.call('ZCARD', w) >= limit then
    out[#out + 1] = 0
  else
    redis.call('ZADD', w, now, ARGV[i + 1])
    redis.call('PEXPIRE', w, 60000)
    redis.call('HINCRBY', KEYS[1], 'usage', 1)
    out[#out + 1] = 1
  end
end
return out`;

type StepRedis = Redis & { benchEvents(...args: string[]): Promise<number[]> };
type FloorEvent = { window: string; member: string };

export function startBareTelemetry(port = 0, redisUrl?: string): Promise<{ url: string }> {
  const redis = redisUrl ? (new Redis(redisUrl, { enableAutoPipelining: true }) as StepRedis) : undefined;
  redis?.defineCommand('benchEvents', { lua: windowAndCountLua });
  const sendEvents = (events: FloorEvent[]) => {
    const keys = ['bench-floor:c', ...events.map((e) => e.window)];
    const members = events.map((e) => e.member);
    return (redis as StepRedis).benchEvents(String(keys.length), ...keys, String(Date.now()), '1000000', ...members);
  };
  let member = 0;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: '1mb' }));
  app.post('/api/v1/telemetry', (req, res) => {
    const parsed = telemetryBody.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: parsed.error.message });
      return;
    }
    if (!redis) {
      res.json({ recorded: true });
      return;
    }
    // the floor: one step per event, keyed by the client address as the intake's window is
    submitToGroup<FloorEvent, number>(redis, 'floor', () => sendEvents, 100, {
      window: `bench-floor:w:${req.ip}`,
      member: String(member++),
    })
      .then((recorded) => res.json({ recorded: recorded === 1 }))
      .catch((err: Error) => res.status(503).json({ error: err.message }));
  });
  return new Promise((resolve) => {
    const server = app.listen(port, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
    server.keepAliveTimeout = 65_000;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await startBareTelemetry(Number(process.env.PORT ?? 0), process.env.REDIS_URL);
  process.stdout.write(`listening ${url}\n`);
}
