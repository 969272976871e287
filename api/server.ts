// The API process: loads the configuration, opens connections, serves HTTP and shuts down gracefully.
import '../shared/node-runtime.js';
import { loadConfigOrExit } from '../shared/config/index.js';
import { createAppContext } from '../shared/context.js';
import { collectProcessMetrics } from '../shared/metrics/metrics.js';
import { createApp } from './app.js';
import { listenFailureMessage } from './listen-failure.js';

const config = loadConfigOrExit();
const ctx = createAppContext(config, 'api');
collectProcessMetrics('web');
const app = createApp(ctx);

const server = app.listen(config.PORT, (err) => {
  if (err) {
    process.stderr.write(`${listenFailureMessage(err, config.PORT)}\n`);
    process.exit(1);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  ctx.logger.info(
    { port, node: process.version },
    `API listening on http://localhost:${port} (Node.js ${process.version})`,
  );
});
server.keepAliveTimeout = 65_000;

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  ctx.logger.info({ signal }, 'API stopping: no new connections, finishing requests in flight');
  const forced = setTimeout(() => process.exit(1), 15_000).unref();
  server.close(async () => {
    await ctx.close();
    clearTimeout(forced);
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
