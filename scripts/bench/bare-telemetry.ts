// The floor the telemetry intake is measured against: Express reading the JSON body, validating it with the same
// schema as POST /api/v1/telemetry and answering {recorded:true}; no rate limit, no Redis, no logging. Run as a
// process (`tsx scripts/bench/bare-telemetry.ts`): prints its URL. (It exports its start function, as every helper
// here does, so that `npm run bench` does not take it for a benchmark and wait on it forever.)
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { telemetryBody } from '../../api/routes/telemetry/telemetry.schemas.js';

export function startBareTelemetry(port = 0): Promise<{ url: string }> {
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
    res.json({ recorded: true });
  });
  return new Promise((resolve) => {
    const server = app.listen(port, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
    server.keepAliveTimeout = 65_000;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { url } = await startBareTelemetry(Number(process.env.PORT ?? 0));
  process.stdout.write(`listening ${url}\n`);
}
