// The floor a gateway is measured against: Express reading the JSON body and undici relaying it to the upstream
// and the answer back (keep-alive pool), with no authentication, billing or logging. Run as a process
// (`UPSTREAM_URL=… tsx scripts/bench/bare-relay.ts`): prints its URL.
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { Agent, request } from 'undici';

/** Work around each relayed request (redis-step-relay.ts adds the design's two Redis steps this way). */
export type RelaySteps<T> = { before(): Promise<T>; after(held: T): Promise<void>; close(): Promise<void> };

export function startBareRelay<T = undefined>(
  upstream: string,
  port = 0,
  steps?: RelaySteps<T>,
): Promise<{ url: string; close(): Promise<void> }> {
  const agent = new Agent({ keepAliveTimeout: 60_000, connections: 128 });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json({ limit: '32mb' }));
  app.post('/v1/messages', async (req, res) => {
    // no await at all without steps: the baseline stays the bare relay it always was
    const held = steps ? await steps.before() : undefined;
    const answer = await request(`${upstream}/v1/messages`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify(req.body),
    });
    res.status(answer.statusCode);
    res.setHeader('content-type', String(answer.headers['content-type'] ?? 'application/json'));
    for await (const chunk of answer.body) res.write(chunk);
    res.end();
    if (steps) await steps.after(held as T);
  });
  return new Promise((resolve) => {
    const server = app.listen(port, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: async () => {
          await new Promise((r) => server.close(() => r(undefined)));
          await agent.close();
          await steps?.close();
        },
      }),
    );
    server.keepAliveTimeout = 65_000;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const relay = await startBareRelay(String(process.env.UPSTREAM_URL), Number(process.env.PORT ?? 0));
  process.stdout.write(`listening ${relay.url}\n`);
}
