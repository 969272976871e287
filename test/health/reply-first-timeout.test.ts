// The API's Redis command timeout judges a command only after the process has read what Redis sent: a stall of the
// process's own event loop longer than the timeout, with the answer waiting in the socket, is not a Redis outage
// (before, the command failed as "Command timed out" and its request answered 503). A Redis that does not answer still
// fails the command at its timeout.
import { execFileSync } from 'node:child_process';
import type { Redis } from 'ioredis';
import { createRedis } from '../../shared/redis/connection.js';
import { PrivateRedis } from '../support/private-redis.js';

const TIMEOUT_MS = 300;
let server: PrivateRedis;
let redis: Redis;

beforeAll(async () => {
  server = await PrivateRedis.start();
  // Not auto-pipelined, so a command is in the socket when its call returns and the stall below comes after it.
  redis = createRedis({ REDIS_URL: server.url }, 'api', { commandTimeout: TIMEOUT_MS, enableAutoPipelining: false });
  await new Promise((ready) => redis.once('ready', ready));
});
afterAll(async () => {
  redis?.disconnect();
  server?.resume();
  await server?.dispose();
});

/** Blocks this process's event loop until Redis has stored `key` (its answer to the SET is then on its way) and the
 * command timeout has passed. */
function stallUntilStored(key: string) {
  const started = performance.now();
  for (;;) {
    const stored =
      execFileSync('redis-cli', ['-p', String(server.port), 'GET', key])
        .toString()
        .trim() === 'stored';
    if (stored && performance.now() - started > TIMEOUT_MS * 2) return;
  }
}

it('a command Redis answered during a stall of this process succeeds', async () => {
  const reply = redis.set('stalled', 'stored');
  stallUntilStored('stalled');
  await expect(reply).resolves.toBe('OK');
});

it('a command a frozen Redis does not answer fails at its timeout', async () => {
  server.pause();
  await expect(redis.get('stalled')).rejects.toThrow('Command timed out');
  server.resume();
  await expect(redis.get('stalled')).resolves.toBe('stored');
});
