// A process that logs a long line and then a last one and exits at once, as a stopping worker does; with WAIT=1 it
// waits for linesWritten first (test/logging/last-line-order.test.ts reads its output).
import { createLogger, linesWritten } from '../../shared/logging/logger.js';

const logger = createLogger({ LOG_LEVEL: 'info', LOG_FORMAT: 'json' }, 'exit-order');
logger.info({ filler: 'x'.repeat(400_000) }, 'first');
logger.info('last');
if (process.env.WAIT === '1') await linesWritten(logger, 10_000);
process.exit(0);
