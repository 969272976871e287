// Stopping an API process without cutting anyone off. From the stop on, /ready answers 503 (a load balancer takes the
// process out), every answer carries `Connection: close` (a keep-alive client's next request opens a new connection,
// which only another process accepts), idle keep-alive connections are closed at once, and a connection with an
// answer in flight closes as soon as that answer ends, so the server's close completes with the last of them.
// Before, a stopping process refused new connections but served every request its open connections sent, /ready 200
// included, until API_SHUTDOWN_MS cut them all (docs/operations.md, "Upgrading with traffic flowing").
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** The answers in flight, known only to be told at the stop: a Set entry and one listener per request. */
const inFlight = new Set<ServerResponse>();
let draining = false;

function forget(this: ServerResponse) {
  inFlight.delete(this);
}

/** Whether this process is stopping: /ready says so with a 503. */
export const isDraining = () => draining;

/** The server's request listener: keeps track of the answer in flight (or, once stopping, closes its connection). */
export function drainable(app: RequestListener): RequestListener<typeof IncomingMessage, typeof ServerResponse> {
  return (req, res) => {
    if (draining) res.setHeader('connection', 'close');
    else {
      inFlight.add(res);
      res.on('close', forget);
    }
    app(req, res);
  };
}

/**
 * Starts draining `server`: what is still to answer will say `Connection: close` (Node then closes the connection
 * after it), an answer whose headers are already out (a stream) closes its connection when it ends, and idle
 * connections close now. The caller then closes the server, which completes once the last connection is gone.
 */
export function beginDraining(server: Server): void {
  draining = true;
  for (const res of inFlight) {
    if (!res.headersSent) res.setHeader('connection', 'close');
    else if (!res.writableFinished && res.socket) {
      const socket = res.socket;
      // As Node ends a `Connection: close` answer's socket: its last bytes are written, then the connection closes.
      res.once('finish', () => socket.end(() => socket.destroy()));
    }
  }
  inFlight.clear();
  server.closeIdleConnections();
}
