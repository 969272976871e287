// The pool of threads that read HTML pages (piscina; why in docs/web.md). The main loop only hands the bytes over:
// parsing and Readability cost up to the cube of a page's nesting depth, so every page is held to limits of wall
// time, heap, elements, attributes and depth. A page over one is that page's `Page too complex to read` error; a
// thread stopped for time or memory is terminated, and piscina starts its replacement.
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { ExtractionResult, ExtractionTask } from './extraction-thread.js';
import type { ComplexityLimits } from './page-complexity.js';

export type ExtractionLimits = ComplexityLimits & {
  /** Threads in the pool (pages read at once per process). */
  threads: number;
  /** Wall time of one page once a thread has started it. */
  timeoutMs: number;
  /** V8 old-generation heap of each thread, in MB. */
  heapMb: number;
};

export class PageTooComplex extends Error {
  constructor(reason: string) {
    super(`Page too complex to read: ${reason}.`);
  }
}

export type ExtractionPool = {
  extract(body: Uint8Array, contentType: string | undefined): Promise<{ title: string; content: string }>;
  /** Threads started so far, the first ones included: a replaced thread adds one. */
  threadsStarted(): number;
  close(): Promise<void>;
};

// Under tsx (development, tests) the thread loads the TypeScript source and needs tsx's loader: a process started
// by tsx passes it on to its threads, one that was not (jest) gets it here. Built, it is plain JavaScript.
const fromSources = import.meta.url.endsWith('.ts');
const threadFile = new URL(`./extraction-thread${fromSources ? '.ts' : '.js'}`, import.meta.url);
const hasTsxLoader = process.execArgv.some((arg) => arg.includes('tsx'));
const threadExecArgv = fromSources && !hasTsxLoader ? [...process.execArgv, '--import', 'tsx'] : undefined;

const isOutOfMemory = (err: unknown) => (err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';

export function createExtractionPool(
  limits: ExtractionLimits,
  onThreadError: (err: Error) => void = () => {},
): ExtractionPool {
  let started = 0;
  const pool = new Piscina<ExtractionTask, ExtractionResult>({
    filename: threadFile.href,
    minThreads: limits.threads,
    maxThreads: limits.threads,
    // Callers bound the queue: a worker process has at most its web-fetch concurrency × pages per batch waiting.
    maxQueue: Number.POSITIVE_INFINITY,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    ...(threadExecArgv ? { execArgv: threadExecArgv } : {}),
  });
  pool.on('workerCreate', () => {
    started++;
  });
  // A thread that dies with no page in hand (piscina replaces it): reported, never thrown into the process.
  pool.on('error', onThreadError);
  const complexity: ComplexityLimits = {
    maxElements: limits.maxElements,
    maxDepth: limits.maxDepth,
    maxAttributes: limits.maxAttributes,
  };

  return {
    async extract(body, contentType) {
      const aborter = new AbortController();
      const { port1, port2 } = new MessageChannel();
      let timer: NodeJS.Timeout | undefined;
      port1.once('message', () => {
        timer = setTimeout(() => aborter.abort(), limits.timeoutMs);
      });
      try {
        const result = await pool.run(
          { body, contentType, limits: complexity, started: port2 },
          { transferList: [port2], signal: aborter.signal },
        );
        if ('refused' in result) throw new PageTooComplex(result.refused);
        return result;
      } catch (err) {
        if (aborter.signal.aborted) throw new PageTooComplex(`reading it took longer than ${limits.timeoutMs} ms`);
        if (isOutOfMemory(err)) throw new PageTooComplex(`reading it needed more than ${limits.heapMb} MB`);
        throw err;
      } finally {
        clearTimeout(timer);
        port1.close();
      }
    },
    threadsStarted: () => started,
    close: () => pool.destroy(),
  };
}
