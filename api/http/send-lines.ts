// Sends lines of text as the rest of a response body, with backpressure: a slow reader slows the reading of the
// lines. A client that leaves ends it at once (the lines' iterator is returned, so its `finally` runs and it reads
// no further); a waiting 'drain' that a gone client never sends would otherwise hold the handler and what it read
// for the life of the process.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';

/** Writes every line, then ends the response; a failure to read one cuts the connection (the headers are gone). */
export async function sendLines(res: Response, lines: AsyncIterable<string>): Promise<void> {
  try {
    await pipeline(Readable.from(lines), res);
  } catch {
    // pipeline has destroyed the response: the client left, or a read failed and a cut connection is the only
    // honest signal left once the headers are sent.
  }
}
