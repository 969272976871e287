// Structured logging (pino); every line written inside a request or job carries its correlation id. LOG_FORMAT=pretty
// (what `npm start` sets when it runs on a terminal) prints readable lines through pino-pretty, a development
// dependency: where it is not installed (a production install), the lines stay JSON.
import { createRequire } from 'node:module';
import { type Logger, pino, type TransportSingleOptions } from 'pino';
import type { Config } from '../config/index.js';
import { currentCorrelationId } from './correlation.js';
import { serializeError } from './error-serializer.js';

export type { Logger };

const prettyTransport = (): TransportSingleOptions | undefined => {
  try {
    createRequire(import.meta.url).resolve('pino-pretty');
  } catch {
    return undefined;
  }
  return {
    target: 'pino-pretty',
    options: { colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
  };
};

/**
 * JSON lines go to stdout without blocking the event loop: a line is written by an asynchronous write, and the lines
 * logged while one is in flight join the next (under load, one write for many requests' lines instead of a
 * synchronous write each, which the gateway's CPU profile showed). pino flushes what is left synchronously when the
 * process exits, however it exits; only a SIGKILL can lose the last lines.
 */
const stdoutLines = () => pino.destination({ dest: 1, sync: false });

export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>, name: string): Logger {
  const transport = config.LOG_FORMAT === 'pretty' ? prettyTransport() : undefined;
  const options = {
    name,
    level: config.LOG_LEVEL,
    base: { pid: process.pid },
    mixin() {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
    serializers: { err: serializeError },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.password', '*.token'],
      censor: '[redacted]',
    },
  };
  return transport ? pino({ ...options, transport }) : pino(options, stdoutLines());
}

type LineStream = { _writing?: boolean; once(event: 'drain', listener: () => void): unknown };

/**
 * Resolves once every line logged so far is written (at most `withinMs` later). A process about to exit waits for it:
 * at exit pino writes the lines still queued synchronously, while a line already handed to an asynchronous write may
 * still be on its way, so the last lines could land out of order (seen: a worker's "job done" after its "worker
 * stopped", which is meant to be the last line).
 */
export function linesWritten(logger: Logger, withinMs = 1_000): Promise<void> {
  const stream = (logger as unknown as Record<symbol, LineStream | undefined>)[pino.symbols.streamSym];
  if (!stream?._writing) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, withinMs);
    stream.once('drain', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
