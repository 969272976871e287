// `npm run wallet:check`: reconciles every wallet against its records, and every Redis mirror against PostgreSQL, the
// ledger entries still on their way and the holds; prints each difference and exits 1 on any. Also names the
// organizations whose settled requests the ledger writer set aside (not a difference: for the operator to look at).
import '../shared/node-runtime.js';
import { loadConfigOrExit } from '../shared/config/index.js';
import { createDb } from '../shared/db/client.js';
import { createRedis, waitForRedis } from '../shared/redis/connection.js';
import { reconcileMirrors, reconcileWallets, setAsideEntries } from '../shared/wallet/reconciliation.js';
import { walletCheckSummary } from './wallet-check-summary.js';

const config = loadConfigOrExit();
const { db, pool } = createDb(config.DATABASE_URL, { max: 1, applicationName: 'ockhub-wallet-check' });
const redis = createRedis(config, 'worker', { maxRetriesPerRequest: 1 });
try {
  await waitForRedis(redis);
  const report = await reconcileWallets(db);
  const mirrors = await reconcileMirrors({ db, redis, config });
  for (const p of [...report.problems, ...mirrors.problems]) {
    process.stdout.write(
      `DIFFERENCE wallet ${p.organizationId}${p.recordId ? ` record ${p.recordId}` : ''}: ${p.problem}\n`,
    );
  }
  for (const s of await setAsideEntries(db)) {
    process.stdout.write(
      `SET ASIDE wallet ${s.organizationId}: ${s.entries} settled request(s) in ledger_quarantine, ${s.charged} not charged (docs/wallet.md)\n`,
    );
  }
  const differences = report.problems.length + mirrors.problems.length;
  const { wallets, records } = report;
  const { mirrors: mirrorCount, entriesOnTheirWay, holds } = mirrors;
  const counts = { wallets, records, mirrors: mirrorCount, entriesOnTheirWay, holds, differences };
  process.stdout.write(`${walletCheckSummary(counts)}\n`);
  process.exitCode = differences === 0 ? 0 : 1;
} catch (err) {
  process.stderr.write(`[wallet:check] could not run: ${(err as Error).message}\n`);
  process.exitCode = 2;
} finally {
  redis.disconnect();
  await pool.end();
}
