// The API process: loads the configuration, opens connections, serves HTTP and shuts down gracefully.
import '../shared/node-runtime.js';
import http from 'node:http';
import { loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { chargesSettled } from '../shared/gateway/accounting.js';
import { linesWritten } from '../shared/logging/logger.js';
import { collectProcessMetrics } from '../shared/metrics/metrics.js';
import { createApp } from './app.js';
import { beginDraining, drainable } from './http/drain.js';
import { listenFailureMessage } from './listen-failure.js';

const config = loadConfigOrExit();
const ctx = createAppContext(config, 'api');
collectProcessMetrics('web');
const app = createApp(ctx);

const server = http.createServer(drainable(app));
// As Express's app.listen: a listen error comes to the callback (once), which says why and exits.
let listenAnswered = false;
const onListen = (err?: NodeJS.ErrnoException) => {
  if (listenAnswered) return;
  listenAnswered = true;
  if (err) {
    process.stderr.write(`${listenFailureMessage(err, config.PORT)}\n`);
    process.exit(1);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  // Behind a proxy the address people use is PUBLIC_BASE_URL, not this machine's port: the line names both then.
  const where = config.PUBLIC_BASE_URL
    ? `port ${port}, public address ${config.publicBaseUrl}`
    : `http://localhost:${port}`;
  ctx.logger.info({ port, node: process.version }, `API listening on ${where} (Node.js ${process.version})`);
};
server.once('error', onListen);
server.listen(config.PORT, () => onListen());
server.keepAliveTimeout = 65_000;

/** How long the settlements of the requests cut at shutdown may take to be issued (one Redis step each). */
const SETTLE_GRACE_MS = 3_000;

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  ctx.logger.info(
    { signal },
    'API stopping: no new connections, /ready 503, finishing requests in flight with Connection: close',
  );
  beginDraining(server);
  // Requests still open after API_SHUTDOWN_MS (a long stream, a web fetch waiting on its batch) are cut: each then
  // settles for what it delivered, as when its client leaves, and the process waits for those settlements before it
  // closes Redis. Exiting over them instead left their holds to expire, so what they had used was never charged.
  const cut = setTimeout(() => {
    ctx.logger.warn('API stopping: cutting the requests still in flight');
    server.closeAllConnections();
  }, config.API_SHUTDOWN_MS).unref();
  const startedAt = Date.now();
  // The last line of a stop says how it ended: a supervisor's log otherwise shows an exit code and nothing about why.
  const forced = setTimeout(
    () => {
      ctx.logger.error(
        { signal, ms: Date.now() - startedAt },
        'API stopped: its connections did not close in time; exiting 1',
      );
      process.exit(1);
    },
    config.API_SHUTDOWN_MS + 2 * SETTLE_GRACE_MS,
  ).unref();
  server.close(async () => {
    clearTimeout(cut);
    const unsettled = await chargesSettled(SETTLE_GRACE_MS);
    if (unsettled > 0) ctx.logger.warn({ unsettled }, 'API stopping: charges left to their holds’ expiry');
    await ctx.close();
    clearTimeout(forced);
    ctx.logger.info({ signal, ms: Date.now() - startedAt }, 'API stopped: requests finished, connections closed');
    await linesWritten(ctx.logger);
    process.exit(0);
  });
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
