// Runs in a thread of the extraction pool: decodes an HTML page, looks at its shape (page-complexity.ts), and only
// then builds its DOM and runs Readability. It tells the pool when it starts, so the wall-time limit counts the
// page's own work and not its wait in the queue.
import type { MessagePort } from 'node:worker_threads';
import { decodePage } from './page-charset.js';
import { type ComplexityLimits, pageComplexity } from './page-complexity.js';
import { readableText } from './readable-text.js';

export type ExtractionTask = {
  body: Uint8Array;
  contentType: string | undefined;
  limits: ComplexityLimits;
  started: MessagePort;
};

export type ExtractionResult = { title: string; content: string } | { refused: string };

export default function extractPage(task: ExtractionTask): ExtractionResult {
  task.started.postMessage('started');
  task.started.close();
  const { text } = decodePage(
    Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength),
    task.contentType,
  );
  const refused = pageComplexity(text, task.limits);
  if (refused) return { refused };
  return readableText(text);
}
