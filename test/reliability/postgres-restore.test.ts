// PostgreSQL restored from a backup (pg_dump, then pg_restore into a new database) while Redis kept running: the
// wallet mirror is ahead of the restored ledger. The wallet sweep rebuilds it from PostgreSQL, so the money the
// restore brought back is what the gateway admits against, once: before, the mirror ignored every later state as
// older, the charges written since left its `pend` without lowering its base, and the same money admitted request
// after request.
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { walletRecords } from '../../shared/db/schema/index.js';
import { sweepWallets } from '../../shared/wallet/wallet-sweep.js';
import { getWallet } from '../../shared/wallet/wallets.js';
import { createHarness, freshTestDatabase, type Harness } from '../support/harness.js';
import { fundedWallet, usd } from '../support/wallet-factory.js';
import { charge, live, spend, walletProblems } from '../support/wallet-spend.js';

const run = promisify(execFile);

async function restoredCopy(backup: string, sourceUrl: string): Promise<string> {
  const url = new URL(sourceUrl);
  url.pathname = `${url.pathname}_r`;
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).toString() });
  await admin.connect();
  try {
    await admin.query(`create database "${url.pathname.slice(1)}"`);
  } finally {
    await admin.end();
  }
  await run('pg_restore', ['--no-owner', '-d', url.toString(), backup]);
  return url.toString();
}

/** Paid requests of `amount` written through, until the wallet refuses one; how many were admitted. */
async function spendUntilRefused(h: Harness, organizationId: string, amount: bigint): Promise<number> {
  for (let admitted = 0; admitted < 20; admitted++) {
    try {
      await spend(h.ctx, organizationId, amount);
    } catch (err) {
      if ((err as { status?: number }).status === 402) return admitted;
      throw err;
    }
  }
  return 20;
}

describe('PostgreSQL restored from a backup, Redis kept', () => {
  let before: Harness;
  let after: Harness | undefined;
  afterAll(async () => {
    await after?.close();
  });

  it('rebuilds the wallet mirror from the restored ledger at the sweep, so no money is spent twice', async () => {
    const databaseUrl = await freshTestDatabase();
    before = await createHarness({ DATABASE_URL: databaseUrl });
    const org = await fundedWallet(before, '1');
    for (let i = 0; i < 2; i++) await spend(before.ctx, org, usd('0.1'));
    const backup = path.join(os.tmpdir(), `ockhub-restore-${process.pid}.dump`);
    await run('pg_dump', ['-Fc', '-f', backup, databaseUrl]);
    for (let i = 0; i < 4; i++) await spend(before.ctx, org, usd('0.1'));
    const waiting = await charge(before.ctx, org, usd('0.05'));
    expect(await live(before.ctx, org)).toMatchObject({ balance: usd('0.35'), frozenAmount: 0n });

    // The database is lost; the operator restores the backup into a new database and points the processes at it.
    const restoredUrl = await restoredCopy(backup, databaseUrl);
    await rm(backup, { force: true });
    await before.ctx.close();
    after = await createHarness({ DATABASE_URL: restoredUrl, REDIS_PREFIX: before.config.REDIS_PREFIX });
    expect((await getWallet(after.ctx.db, org)).balance).toBe(usd('0.8'));
    expect((await walletProblems(after.ctx, org)).map((p) => p.problem)).toEqual([
      expect.stringContaining("mirror at record 7, ahead of PostgreSQL's last record 3: PostgreSQL was restored"),
    ]);

    expect(await sweepWallets(after.ctx)).toMatchObject({ rebuilt: 1 });
    // The restored balance less the request that settled before the loss and waits in the stream.
    expect(await live(after.ctx, org)).toMatchObject({ balance: usd('0.75'), frozenAmount: 0n });
    expect(await walletProblems(after.ctx, org)).toEqual([]);

    expect(await spendUntilRefused(after, org, usd('0.3'))).toBe(2);
    const pgWallet = await getWallet(after.ctx.db, org);
    expect(pgWallet.balance).toBe(usd('0.15'));
    const records = await after.ctx.db.select().from(walletRecords).where(eq(walletRecords.organizationId, org));
    expect(records.filter((r) => r.requestLogId === waiting.requestLogId)).toHaveLength(1);
    expect(await live(after.ctx, org)).toMatchObject({ balance: usd('0.15'), frozenAmount: 0n });
    expect(await walletProblems(after.ctx, org)).toEqual([]);
  });
});
