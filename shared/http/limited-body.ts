// Reads a response body chunk by chunk, failing as soon as it passes its byte limit (never buffering it whole).
import { Readable } from 'node:stream';
import { OutboundRequestError, toOutboundError } from './outbound-error.js';

export function describeBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? `${mb} MB` : `${bytes} bytes`;
}

export const tooLarge = (maxBytes: number, url: URL) =>
  new OutboundRequestError(
    'too-large',
    `The response is larger than the limit of ${describeBytes(maxBytes)}.`,
    url.href,
  );

/** Drops a body we will not read (undici reports the destroy as an error event, which nobody needs). */
export function discard(body: Readable): void {
  body.on('error', () => undefined).destroy();
}

async function* limitedChunks(body: Readable, maxBytes: number, url: URL, done: () => void) {
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge(maxBytes, url);
      yield chunk;
    }
  } catch (err) {
    throw toOutboundError(err, url);
  } finally {
    discard(body);
    done();
  }
}

/** A byte stream over `body` that errors with `too-large` past `maxBytes`; `done` runs once it ends, fails or is destroyed. */
export function limitedBody(body: Readable, maxBytes: number, url: URL, done: () => void): Readable {
  return Readable.from(limitedChunks(body, maxBytes, url, done), { objectMode: false });
}

/** Reads a whole (limited) body into one Buffer. */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
