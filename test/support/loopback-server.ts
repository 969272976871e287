// Test HTTP servers on 127.0.0.1 or ::1 only, counting the requests they receive.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type LoopbackServer = {
  port: number;
  /** http://127.0.0.1:port (or http://[::1]:port) */
  origin: string;
  /** Requests received so far, in order. */
  requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
};

export async function startLoopbackServer(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
  host: '127.0.0.1' | '::1' = '127.0.0.1',
): Promise<LoopbackServer> {
  const requests: LoopbackServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: host === '::1' ? `http://[::1]:${port}` : `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
