// `npm run wallet:check`: reconciles every wallet against its records; prints each difference and exits 1 on any.
import { loadConfigOrExit } from '../shared/config/index.js';
import { createDb } from '../shared/db/client.js';
import { reconcileWallets } from '../shared/wallet/reconciliation.js';

const config = loadConfigOrExit();
const { db, pool } = createDb(config.DATABASE_URL, { max: 1, applicationName: 'ockhub-wallet-check' });
try {
  const report = await reconcileWallets(db);
  for (const p of report.problems) {
    process.stdout.write(
      `DIFFERENCE wallet ${p.organizationId}${p.recordId ? ` record ${p.recordId}` : ''}: ${p.problem}\n`,
    );
  }
  const summary = `${report.wallets} wallets, ${report.records} records, ${report.problems.length} differences`;
  process.stdout.write(`[wallet:check] ${report.problems.length === 0 ? 'OK' : 'FAILED'}: ${summary}\n`);
  process.exitCode = report.problems.length === 0 ? 0 : 1;
} catch (err) {
  process.stderr.write(`[wallet:check] could not run: ${(err as Error).message}\n`);
  process.exitCode = 2;
} finally {
  await pool.end();
}
