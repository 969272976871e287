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
 * process exits, however it exits (process.exit, an uncaught exception); only a SIGKILL can lose the last lines.
 */
const stdoutLines = () => pino.destination({ dest: 1, sync: false });

/** How many bytes a buffered logger gathers before it writes, and how long a line waits at most when fewer come. */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 100;

/**
 * Buffered JSON lines (the API process): a write only once 4 KiB of lines wait, or every 100 ms for fewer, so at one
 * request at a time a write carries about ten requests' lines instead of one. The process that logs a line somebody
 * waits for (a supervisor's "listening") calls `logger.flush()` right after it. At exit the buffer is written
 * synchronously as above; a SIGKILL can lose up to the last 100 ms of lines.
 */
function bufferedStdoutLines() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES });
  // `_len` (bytes waiting) and `destroyed` are sonic-boom's own: flushing an empty buffer would write zero bytes ten
  // times a second, and flushing a destroyed one throws.
  const state = destination as unknown as { _len?: number; destroyed?: boolean };
  const timer = setInterval(() => {
    if (!state.destroyed && state._len !== 0) destination.flush();
  }, LOG_FLUSH_MS).unref();
  destination.on('close', () => clearInterval(timer));
  return destination;
}

export type LoggerOptions = { buffered?: boolean };

export function createLogger(
  config: Pick<Config, 'LOG_LEVEL' | 'LOG_FORMAT'>,
  name: string,
  { buffered = false }: LoggerOptions = {},
): Logger {
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
  if (transport) return pino({ ...options, transport });
  return pino(options, buffered ? bufferedStdoutLines() : stdoutLines());
}
