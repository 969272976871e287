// What one simulator instance remembers for inspection by tests: the recent requests it received, and counters.
import type { RequestHandler } from 'express';

export type RecordedRequest = {
  at: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
};

export type Counters = {
  messages: number;
  messageStreamsCompleted: number;
  messageStreamsAborted: number;
  countTokens: number;
  videoTasksCreated: number;
  searches: number;
};

export class SimulatorState {
  readonly requests: RecordedRequest[] = [];
  readonly counters: Counters = {
    messages: 0,
    messageStreamsCompleted: 0,
    messageStreamsAborted: 0,
    countTokens: 0,
    videoTasksCreated: 0,
    searches: 0,
  };

  constructor(private readonly keep: number) {}

  /** Middleware: records each request; a route that parses its own body (multipart) updates `res.locals.recorded`. */
  readonly recorder: RequestHandler = (req, res, next) => {
    if (req.path.startsWith('/_simulator')) return next();
    const recorded: RecordedRequest = {
      at: new Date().toISOString(),
      method: req.method,
      path: req.path,
      query: { ...req.query },
      headers: { ...req.headers },
      body: undefined,
    };
    res.locals.recorded = recorded;
    this.requests.push(recorded);
    if (this.requests.length > this.keep) this.requests.splice(0, this.requests.length - this.keep);
    next();
  };

  clear(): void {
    this.requests.length = 0;
  }
}
