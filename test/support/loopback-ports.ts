// Ports on the loopback interface, for the private servers of tests and benchmarks: one free now, and whether
// something accepts connections on one.
import http from 'node:http';
import net from 'node:net';

/** A port the system just handed out and released: free unless another process takes it first. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Whether a TCP connection to 127.0.0.1:port is accepted. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * An HTTP server already listening on a free loopback port, with no handler yet: a world whose configuration must
 * name its own URL takes the port first and attaches its app afterwards (`server.on('request', app)`). Taking a
 * port number from freePort() and listening on it later lets another process take it in between (EADDRINUSE).
 */
export async function listeningServer(): Promise<{ server: http.Server; port: number; origin: string }> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as net.AddressInfo;
  return { server, port, origin: `http://127.0.0.1:${port}` };
}
