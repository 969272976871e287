// Ports on the loopback interface, for the private servers of tests and benchmarks: one free now, and whether
// something accepts connections on one.
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
