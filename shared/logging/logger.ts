// Structured logging (pino); every line written inside a request or job carries its correlation id.
import { type Logger, pino } from 'pino';
import type { Config } from '../config/index.js';
import { currentCorrelationId } from './correlation.js';

export type { Logger };

export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, name: string): Logger {
  return pino({
    name,
    level: config.LOG_LEVEL,
    base: { pid: process.pid },
    mixin() {
      const correlationId = currentCorrelationId();
      return correlationId ? { correlationId } : {};
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.password', '*.token'],
      censor: '[redacted]',
    },
  });
}
