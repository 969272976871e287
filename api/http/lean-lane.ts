// The lean lane: the hot routes read a plain JSON body on Node's own request and response, without Express's
// application middleware or body parser, and a route that declares a `lean` answer (telemetry intake) also answers it
// there, without Express's request and response objects or `res.json`: the per-request machinery that, in the
// intake's CPU profile, cost more than its one Redis step (docs/telemetry.md). It takes only a request whose body
// needs none of the parser's options: `application/json` (UTF-8), a Content-Length of at most `maxBytes`, no
// Content-Encoding, no chunked body. Everything else goes to the route's whole Express chain through the direct lane,
// unchanged. What every request gets first (security headers, correlation id, log line, metrics) and the JSON checks
// are the functions the Express middleware calls; errors are rendered by the application's error handler on
// Express's objects, and a body no lean answer takes (the gateway's, telemetry's batch form) goes on to the route's
// chain already parsed, as body-parser would have left it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { withCorrelationId } from '../../shared/logging/correlation.js';
import { parseJsonBytes } from './json-body.js';

/** Answers the parsed body (sent as JSON, 200), or undefined to leave it to the route's Express chain. */
export type LeanAnswer = (body: unknown, caller: { address: () => string }) => Promise<object | undefined>;

export type LeanRoute = {
  /** The largest body the lean lane reads (the route's own limit, or less). */
  maxBytes: number;
  /** What every request gets before its route, on Node's objects (log line, metrics); answers the correlation id. */
  begin: (req: IncomingMessage, res: ServerResponse) => string;
  /**
   * The headers every answer carries (security headers, the correlation id) as one flat list of names and values:
   * a lean answer passes them to `writeHead` at once, which skips `setHeader`'s work per header (docs/telemetry.md).
   */
  headers: (correlationId: string) => string[];
  /** The caller's address as Express's `req.ip` gives it. */
  address: (req: IncomingMessage) => string;
  /** The route's own answer to a body, if it has one; without, every body goes on to `rest`. */
  answer?: LeanAnswer;
  /** The route's chain after the body parser, for a body `answer` leaves. */
  rest: RequestHandler[];
};

/** How the lean lane reaches Express for what it does not do itself. */
export type ExpressHandOver = {
  /** Renders `err` as the application's error handler does. */
  fail(req: IncomingMessage, res: ServerResponse, err: unknown): void;
  /** Runs `chain` on Express's request and response, as the direct lane runs a hot route. */
  run(req: IncomingMessage, res: ServerResponse, chain: RequestHandler[]): void;
};

// Only spaces and tabs around the parameter, and a charset exactly `utf-8` (quoted or not): what the route's parser
// reads as UTF-8 JSON too. Other blanks (a no-break space), a stray quote or another parameter go to the chain, whose
// parser answers them its own way (a body it does not take, a 415): security review #102.
const plainJson = /^application\/json[ \t]*(?:;[ \t]*charset=(?:utf-8|"utf-8")[ \t]*)?$/i;

/** Whether the request's body is one the lean lane reads exactly as the route's JSON parser would. */
export function takesLean(req: IncomingMessage, maxBytes: number): boolean {
  const headers = req.headers;
  if (headers['transfer-encoding'] !== undefined || headers['content-encoding'] !== undefined) return false;
  if (!plainJson.test(headers['content-type'] ?? '')) return false;
  const length = Number(headers['content-length']);
  return Number.isInteger(length) && length > 0 && length <= maxBytes;
}

function sendJson(res: ServerResponse, value: object, headers: string[]): void {
  const text = JSON.stringify(value);
  // Content type spelt as Express's res.json spells it.
  headers.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(Buffer.byteLength(text)));
  res.writeHead(200, headers);
  res.end(text);
}

function setEach(res: ServerResponse, headers: string[]): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i] as string, headers[i + 1] as string);
}

type ParsedRequest = IncomingMessage & { body?: unknown; _body?: boolean };

const leftToChain = Promise.resolve(undefined);

export function serveLean(route: LeanRoute, req: IncomingMessage, res: ServerResponse, express: ExpressHandOver) {
  const correlationId = route.begin(req, res);
  // Anything but a lean answer is written by Express's handlers, which add to the headers set here.
  const toExpress = () => setEach(res, route.headers(correlationId));
  const fail = (err: unknown) => {
    if (!res.headersSent) toExpress();
    express.fail(req, res, err);
  };
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () =>
    withCorrelationId(correlationId, () => {
      let body: unknown;
      let answered: Promise<object | undefined>;
      try {
        body = parseJsonBytes(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks));
        // An answer that throws before its first await is refused like one that rejects.
        answered = route.answer ? route.answer(body, { address: () => route.address(req) }) : leftToChain;
      } catch (err) {
        fail(err);
        return;
      }
      answered
        .then((answer) => {
          if (answer !== undefined) {
            sendJson(res, answer, route.headers(correlationId));
            return;
          }
          toExpress();
          // body-parser's own marks: a parser later in a chain leaves a request with `_body` alone.
          const parsed = req as ParsedRequest;
          parsed.body = body;
          parsed._body = true;
          express.run(req, res, route.rest);
        })
        // A rejected answer, and one that cannot be written (JSON.stringify of a cycle), go to the error handler.
        .catch(fail);
    }),
  );
}
