// Closed-loop GET load from this process: `connections` clients each sending the next request when the last
// answered, after a one-second warm-up; requests per second and latency percentiles. Every answer must be 200.
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { Pool } from 'undici';
import { percentile } from './bench-context.js';

export type LoadResult = { name: string; rps: number; p50: number; p99: number };

export async function measureGets(
  name: string,
  origin: string,
  path: string,
  options: { seconds: number; connections: number },
): Promise<LoadResult> {
  const pool = new Pool(origin, { connections: options.connections, pipelining: 1 });
  const latencies: number[] = [];
  let failures = 0;
  const run = async (until: number, record: boolean) => {
    while (Date.now() < until) {
      const started = performance.now();
      const res = await pool.request({ method: 'GET', path });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) failures++;
      if (record) latencies.push(performance.now() - started);
    }
  };
  const workers = (ms: number, record: boolean) =>
    Promise.all(Array.from({ length: options.connections }, () => run(Date.now() + ms, record)));
  await workers(1_000, false); // warm-up
  const started = performance.now();
  await workers(options.seconds * 1000, true);
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  if (failures > 0) throw new Error(`${name}: ${failures} responses were not 200`);
  return { name, rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Serves an app on a free loopback port. */
export async function listenOnLoopback(app: Express) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
