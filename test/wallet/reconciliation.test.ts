// `npm run wallet:check` as operators run it, and the scheduled wallet sweep: expired holds are released, mirrors
// brought to PostgreSQL's state, ledger streams left waiting written, and alerts whose enqueue was lost queued again.
import { spawn } from 'node:child_process';
import type { Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { walletCheckSummary } from '../../scripts/wallet-check-summary.js';
import { inheritedEnv } from '../../shared/config/index.js';
import { organizations, walletBalanceAlerts, walletRecords } from '../../shared/db/schema/index.js';
import { openCharge } from '../../shared/gateway/accounting.js';
import { schedules } from '../../shared/queues/schedules.js';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { sweepWallets } from '../../shared/wallet/wallet-sweep.js';
import { ensureWallets, getWallet } from '../../shared/wallet/wallets.js';
import maintenance from '../../workers/maintenance/processor.js';
import { handle } from '../../workers/processor.js';
import { createHarness, type Harness, repoRoot } from '../support/harness.js';
import { fundedWallet, usd } from '../support/wallet-factory.js';
import { callerOf, charge, live, spend } from '../support/wallet-spend.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

function walletCheck(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/wallet-check.ts'], {
      cwd: repoRoot,
      env: inheritedEnv({ NODE_OPTIONS: '', ...h.env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('npm run wallet:check', () => {
  it('passes when every wallet reconciles, and exits non-zero printing each difference when one does not', async () => {
    const org = await fundedWallet(h, '10');
    const { record } = await spend(h.ctx, org, usd('1'));
    await openCharge(h.ctx, callerOf(org), { operation: 'messages', reserveMicros: usd('2') });
    await charge(h.ctx, org, usd('0.5'));
    const clean = await walletCheck();
    expect(clean.output).toMatch(
      /\[wallet:check\] OK: \d+ wallets?, \d+ records?, \d+ mirrors?, [1-9]\d* ledger (entry on its|entries on their) way, [1-9]\d* holds?, 0 differences/,
    );
    expect(clean.code).toBe(0);

    // A record edited behind the ledger's back breaks the sum and the chain
    await h.ctx.db
      .update(walletRecords)
      .set({ amount: usd('0.5') })
      .where(eq(walletRecords.id, record.id));
    try {
      const broken = await walletCheck();
      expect(broken.code).toBe(1);
      expect(broken.output).toContain(`DIFFERENCE wallet ${org}: balance = 9 but the records sum to 9.5`);
      expect(broken.output).toContain(`DIFFERENCE wallet ${org} record ${record.id}: currentBalance 9 ≠ 10 − 0.5`);
      expect(broken.output).toMatch(/FAILED: .* 2 differences/);
    } finally {
      await h.ctx.db
        .update(walletRecords)
        .set({ amount: usd('1') })
        .where(eq(walletRecords.id, record.id));
    }
    expect((await walletCheck()).code).toBe(0);

    // A mirror changed behind the Lua steps' back no longer matches its stream
    const { w } = mirrorKeys(h.config.REDIS_PREFIX, org);
    await h.ctx.redis.hincrby(w, 'pend', 1);
    try {
      const broken = await walletCheck();
      expect(broken.code).toBe(1);
      expect(broken.output).toContain(
        `DIFFERENCE wallet ${org}: mirror pending 0.500001 but the 1 ledger entries on their way charged 0.5`,
      );
    } finally {
      await h.ctx.redis.hincrby(w, 'pend', -1);
    }
  }, 60_000);
});

describe("npm run wallet:check's last line", () => {
  it('says "1 wallet" (and every other count of one) in the singular', () => {
    const one = { wallets: 1, records: 1, mirrors: 1, entriesOnTheirWay: 1, holds: 1, differences: 1 };
    expect(walletCheckSummary(one)).toBe(
      '[wallet:check] FAILED: 1 wallet, 1 record, 1 mirror, 1 ledger entry on its way, 1 hold, 1 difference',
    );
    const none = { wallets: 2, records: 0, mirrors: 2, entriesOnTheirWay: 0, holds: 0, differences: 0 };
    expect(walletCheckSummary(none)).toBe(
      '[wallet:check] OK: 2 wallets, 0 records, 2 mirrors, 0 ledger entries on their way, 0 holds, 0 differences',
    );
  });
});

describe('the wallet sweep (maintenance queue)', () => {
  const run = (name: 'wallet-sweep') => handle(maintenance, name, {}, h.ctx, { name, data: {} } as Job);

  it('is scheduled every minute', () => {
    expect(schedules).toContainEqual({
      id: 'wallet-sweep',
      queue: 'maintenance',
      job: 'wallet-sweep',
      repeat: { every: 60_000 },
    });
  });

  it('releases holds past their expiry, writes waiting ledger streams and re-queues alerts whose enqueue was lost', async () => {
    const org = await fundedWallet(h, '10.5');
    const hold = (expiresInMs: number, amount: string) =>
      openCharge(h.ctx, callerOf(org), {
        operation: 'video',
        reserveMicros: usd(amount),
        reservationExpiresInMs: expiresInMs,
      });
    await spend(h.ctx, org, usd('1'));
    const [alert] = await h.ctx.db
      .select()
      .from(walletBalanceAlerts)
      .where(eq(walletBalanceAlerts.organizationId, org));
    await h.ctx.queues.queue('alerts').remove(`balance-alert-${alert?.id}`);
    const lostAt = new Date(Date.now() - 5 * 60_000);
    await h.ctx.db
      .update(walletBalanceAlerts)
      .set({ enqueuedAt: null, occurredAt: lostAt })
      .where(eq(walletBalanceAlerts.id, alert?.id ?? ''));

    // a settlement whose write was never asked for (its enqueue lost), found 20 s later
    await charge(h.ctx, org, usd('0.5'));
    await hold(60_000, '1');
    await hold(1, '3');
    const waiting = await h.ctx.queues.queue('ledger').getJobCountByTypes('waiting', 'delayed');

    const result = (await run('wallet-sweep')) as { expiredHolds: number; requeuedAlerts: number };
    expect(result.expiredHolds).toBeGreaterThanOrEqual(1);
    expect(result.requeuedAlerts).toBeGreaterThanOrEqual(1);
    expect(await live(h.ctx, org)).toMatchObject({ balance: usd('8'), frozenAmount: usd('1') });
    expect(await getWallet(h.ctx.db, org)).toMatchObject({ balance: usd('9.5') });
    expect((await sweepWallets(h.ctx, Date.now() + 20_000)).strandedStreams).toBeGreaterThanOrEqual(1);
    expect(await h.ctx.queues.queue('ledger').getJobCountByTypes('waiting', 'delayed')).toBeGreaterThan(waiting);
    expect(await h.ctx.queues.queue('alerts').getJob(`balance-alert-${alert?.id}`)).toBeDefined();
    const [after] = await h.ctx.db
      .select()
      .from(walletBalanceAlerts)
      .where(eq(walletBalanceAlerts.id, alert?.id ?? ''));
    expect(after?.enqueuedAt).toBeInstanceOf(Date);
  });
});

describe('the wallets seed step', () => {
  it('gives an organization created before wallets existed its wallet, once', async () => {
    const [older] = await h.ctx.db.insert(organizations).values({ name: 'Older org' }).returning();
    const id = older?.id ?? '';
    await expect(getWallet(h.ctx.db, id)).rejects.toMatchObject({ code: 'Wallet.NotFound' });
    expect(await ensureWallets(h.ctx.db)).toBeGreaterThanOrEqual(1);
    expect(await getWallet(h.ctx.db, id)).toMatchObject({ balance: 0n, currency: 'USD' });
    expect(await ensureWallets(h.ctx.db)).toBe(0);
  });
});
