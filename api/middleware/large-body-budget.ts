// The large gateway bodies an API process reads at once share one budget of bytes (LARGE_BODY_BUDGET_BYTES): a
// paid key could otherwise send sixty 32 MiB bodies at once and hold gigabytes while they are read, parsed and
// relayed (security review #94: 5 GB of peak RSS). A large body (past LARGE_BODY_BYTES, or chunked) claims its
// declared length, or its route's whole limit when that length can grow (chunked, or compressed: it may inflate up to
// the limit), from when its caller is known until its answer is done; one that does not fit answers 503 Server.Busy
// with Retry-After before a byte of it is read. A lone body always fits, however large: the byte limits bound it.
import type { Request, RequestHandler } from 'express';
import { AppError } from '../../shared/errors/app-error.js';
import { recordLargeBodyRefused, setLargeBodyBytesInFlight } from '../../shared/metrics/metrics.js';
import { hasLargeBody } from './large-body-caller.js';

const serverBusy = () =>
  new AppError(
    'Server.Busy',
    503,
    'Too many large request bodies are being read at once: try again shortly (see Retry-After).',
    { headers: { 'retry-after': '1' } },
  );

/** The bytes a large body may come to hold: its declared length, or the route's limit when that can grow. */
function claimOf(req: Request, limitBytes: number): number {
  const length = req.headers['content-length'];
  const encoding = req.headers['content-encoding'];
  const compressed = encoding !== undefined && encoding.trim().toLowerCase() !== 'identity';
  if (length === undefined || compressed) return limitBytes;
  return Math.min(Number(length), limitBytes);
}

export class LargeBodyBudget {
  private inFlight = 0;

  /** `budgetBytes` 0: no budget. */
  constructor(private readonly budgetBytes: number) {}

  /** The claim of a route's large bodies, whose limit is `limitBytes`; put after the large-body caller check. */
  claim(limitBytes: number): RequestHandler {
    return (req, res, next) => {
      if (this.budgetBytes === 0 || !hasLargeBody(req)) return next();
      const bytes = claimOf(req, limitBytes);
      if (this.inFlight > 0 && this.inFlight + bytes > this.budgetBytes) {
        recordLargeBodyRefused();
        return next(serverBusy());
      }
      this.change(bytes);
      res.once('close', () => this.change(-bytes));
      next();
    };
  }

  private change(bytes: number): void {
    this.inFlight += bytes;
    setLargeBodyBytesInFlight(this.inFlight);
  }
}
