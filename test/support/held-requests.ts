// A loopback HTTP server that holds matching requests without answering while `holding` is on, so a test can
// SIGKILL a worker while its job provably waits on an outbound call; other requests get the normal answer.
// A held request ends when its client goes away (the killed worker) or when the server closes.
import http from 'node:http';
import { type LoopbackServer, startLoopbackServer } from './loopback-server.js';

type Answer = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export type HoldingServer = LoopbackServer & {
  /** `holding`: hold matching requests (on at start); `held`: requests held so far, their clients gone or not. */
  gate: { holding: boolean; held: number };
};

export async function startHoldingServer(
  answer: Answer,
  shouldHold: (req: http.IncomingMessage) => boolean = () => true,
): Promise<HoldingServer> {
  const gate = { holding: true, held: 0 };
  const server = await startLoopbackServer((req, res, body) => {
    if (gate.holding && shouldHold(req)) {
      gate.held++;
      return;
    }
    answer(req, res, body);
  });
  return { ...server, gate };
}

/** An answer that forwards the request to `target()` (an origin) and relays its reply: a holding proxy. */
export function forwardTo(target: () => string): Answer {
  return (req, res, body) => {
    const upstream = http.request(
      new URL(req.url ?? '/', target()),
      { method: req.method, headers: { ...req.headers, host: new URL(target()).host } },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
}
