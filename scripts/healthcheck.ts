// The container health check (Dockerfile HEALTHCHECK): `node dist/scripts/healthcheck.js [web|worker]` asks the
// process in the same container for GET /health on loopback (the API's PORT, or the worker's WORKER_METRICS_PORT)
// and exits 0 on a 200 within three seconds, 1 otherwise. It reads the two ports straight from the environment so
// that it costs a few milliseconds and no connection to PostgreSQL or Redis.
const role = process.argv[2] ?? 'web';
const port = role === 'worker' ? process.env.WORKER_METRICS_PORT : (process.env.PORT ?? '3000');
if (role !== 'web' && role !== 'worker') {
  process.stderr.write(`healthcheck: unknown role "${role}" (web or worker)\n`);
  process.exit(2);
}
if (!port || port === '0') {
  process.stderr.write('healthcheck: the worker needs WORKER_METRICS_PORT set to serve /health\n');
  process.exit(1);
}
try {
  const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(3_000) });
  process.exit(res.status === 200 ? 0 : 1);
} catch (err) {
  process.stderr.write(`healthcheck: ${(err as Error).message}\n`);
  process.exit(1);
}
