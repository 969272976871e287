// The floor the telemetry intake is measured against: Express reading the JSON body, validating it with the same
// schema as POST /api/v1/telemetry and answering {recorded:true}; no rate limit, no Redis, no logging. Run as a
// process (`tsx scripts/bench/bare-telemetry.ts`): prints its URL.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { telemetryBody } from '../../api/routes/telemetry/telemetry.schemas.js';

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
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
server.keepAliveTimeout = 65_000;
