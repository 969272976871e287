// Whether the API could listen on a port: `npm start` asks before it migrates and seeds (scripts/dev.ts).
import net from 'node:net';

/** The error listening on `port` gives, as the API would listen (every address), or undefined when it is free. */
export function portRefusal(port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err));
    probe.listen(port, () => probe.close(() => resolve(undefined)));
  });
}
