// Writes server-sent events one by one with a pause between them, and stops as soon as the client goes away.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Response } from 'express';

export type SseEvent = { event: string; data: unknown };

export type StreamOutcome = 'completed' | 'aborted';

export async function writeSse(
  res: Response,
  events: SseEvent[],
  delayMs: number,
  headers: Record<string, string> = {},
): Promise<StreamOutcome> {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  res.status(200).set({
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
  res.flushHeaders();
  for (const [i, { event, data }] of events.entries()) {
    if (gone.signal.aborted) return 'aborted';
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    if (i < events.length - 1 && delayMs > 0) {
      try {
        await sleep(delayMs, undefined, { signal: gone.signal });
      } catch {
        return 'aborted';
      }
    }
  }
  res.end();
  return 'completed';
}
