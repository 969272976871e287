// One total time limit per outbound request, covering connect, redirects, headers and the body.
import { OutboundRequestError } from './outbound-error.js';

export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly detachOuter: () => void;

  constructor(timeoutMs: number, outer?: AbortSignal) {
    const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
    this.timer = setTimeout(
      () => this.abort(new OutboundRequestError('timeout', `The request did not complete within ${seconds}.`)),
      timeoutMs,
    );
    const onOuterAbort = () => this.abort(new OutboundRequestError('aborted', 'The request was cancelled.'));
    if (outer?.aborted) onOuterAbort();
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    this.detachOuter = () => outer?.removeEventListener('abort', onOuterAbort);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Settles with `work`, or rejects with the deadline's reason if that comes first (undici itself only
   * notices an abort once the connection exists). A late result is handed to `dispose`.
   */
  race<T>(work: Promise<T>, dispose: (late: T) => void): Promise<T> {
    const { signal } = this.controller;
    if (signal.aborted) {
      work.then(dispose, () => undefined);
      return Promise.reject(signal.reason);
    }
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const onAbort = () => {
        settled = true;
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          if (settled) dispose(value);
          else resolve(value);
        },
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort);
          if (!settled) reject(err);
        },
      );
    });
  }

  /** Stops the clock; call once the body is fully read or abandoned. */
  clear(): void {
    clearTimeout(this.timer);
    this.detachOuter();
  }

  private abort(reason: OutboundRequestError): void {
    this.clear();
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}
