// Relays an upstream server-sent-event stream to the client chunk by chunk as it arrives (no buffering), feeding
// each chunk to a meter and, for a translated dialect, writing the translation instead of the bytes; an upstream
// failure mid-stream becomes an error event, and a client that goes away aborts the upstream.
import type { Readable } from 'node:stream';
import type { Response } from 'express';

export type RelayEnd = { reason: 'completed' | 'upstream_error' | 'client_closed'; error?: unknown };

export function relaySse(
  upstream: Readable,
  res: Response,
  options: {
    onChunk(chunk: Buffer): void;
    abortUpstream(): void;
    errorEvent(message: string): string;
    /** What to write for an upstream chunk (default: the chunk itself). */
    translate?(chunk: Buffer): string;
    /** Written after the upstream's last chunk (a dialect's end marker). */
    trailer?(): string;
  },
): Promise<RelayEnd> {
  res.status(200);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache');
  // No Connection header of its own: Node says keep-alive, or close while the process stops (api/http/drain.ts).
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();

  return new Promise((resolve) => {
    let done = false;
    const finish = (end: RelayEnd) => {
      if (done) return;
      done = true;
      resolve(end);
    };
    res.on('close', () => {
      if (!res.writableFinished && !done) {
        options.abortUpstream();
        upstream.destroy();
        finish({ reason: 'client_closed' });
      }
    });
    upstream.on('data', (chunk: Buffer) => {
      options.onChunk(chunk);
      const out = options.translate ? options.translate(chunk) : chunk;
      if (out.length > 0 && !res.write(out)) {
        upstream.pause();
        res.once('drain', () => upstream.resume());
      }
    });
    upstream.on('end', () => {
      res.end(options.trailer?.());
      finish({ reason: 'completed' });
    });
    upstream.on('error', (error) => {
      if (done) return;
      if (!res.writableEnded && !res.destroyed) {
        res.end(options.errorEvent('The upstream stream failed before it finished.'));
      }
      finish({ reason: 'upstream_error', error });
    });
  });
}
