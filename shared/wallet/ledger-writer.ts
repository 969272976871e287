// The ledger written behind: moves an organization's settled gateway requests from its Redis stream to PostgreSQL,
// up to 1,000 per transaction (request logs, Consume records chained after the wallet's last record, the wallet
// row, balance alerts), and acknowledges them in Redis only after the commit. Idempotent by request log id: a batch
// written twice (a worker killed between commit and acknowledgement) inserts nothing the second time. An entry that
// PostgreSQL refuses alone is set aside (ledger_quarantine) instead of failing every later batch of its organization.
import { randomUUID } from 'node:crypto';
import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import { sqlStateOf } from '../db/postgres-errors.js';
import { ledgerQuarantine, walletBalanceAlerts } from '../db/schema/index.js';
import { CredentialCache } from '../identity/credential-cache.js';
import { scanKeys } from '../redis/connection.js';
import { untaggedPrefix } from '../redis/tagged-keys.js';
import { utcDay } from '../time/utc-day.js';
import { alertThresholds, crossedThresholds, enqueueAlerts } from './balance-alerts.js';
import { consumeDescription, decodeEntry, type LedgerEntry, storableText, UnreadableEntry } from './ledger-entry.js';
import { type ConsumeRecord, insertConsumeRecords, insertRequestLogs, writtenRequestLogIds } from './ledger-rows.js';
import { ackStep, mirrorKeys, readStream, type StreamEntry } from './mirror-steps.js';
import { formatMicros } from './money.js';
import { lockWallet, writeBalance } from './wallets.js';

export const LEDGER_BATCH_SIZE = 1000;
/** A write job hands over to a fresh job after this long, so one busy organization never holds a worker slot. */
const JOB_BUDGET_MS = 20_000;

type Ctx = Pick<AppContext, 'db' | 'redis' | 'config' | 'queues' | 'logger'>;

/** Asks the `ledger` queue to write an organization's stream; a failure is logged (the wallet sweep catches up). */
export async function requestLedgerWrite(
  ctx: Pick<AppContext, 'queues' | 'config' | 'logger'>,
  organizationId: string,
  delayMs = ctx.config.LEDGER_FLUSH_DELAY_MS,
): Promise<void> {
  try {
    await ctx.queues.add('ledger', 'write', { organizationId }, delayMs > 0 ? { delay: delayMs } : {});
  } catch (err) {
    ctx.logger.warn({ organizationId, err: (err as Error).message }, 'ledger write not enqueued; the sweep will');
  }
}

export type LedgerWrite = { entries: number; written: number; transactions: number };

/**
 * Writes the organization's stream in batches until it is empty. `paced` (the `ledger` job): after a batch that was
 * not full, the entries settled while it was being written are left to a fresh job one flush delay later instead of
 * a transaction straight away, so steady traffic is written one transaction per flush delay rather than one after
 * another (a transaction per ~60 requests at 16 at once, before); a backlog (full batches) is still written at once.
 */
export async function writeLedger(
  ctx: Ctx,
  organizationId: string,
  options: { paced?: boolean } = {},
): Promise<LedgerWrite> {
  const started = Date.now();
  const total: LedgerWrite = { entries: 0, written: 0, transactions: 0 };
  for (;;) {
    const batch = await readStream(ctx.redis, ctx.config.REDIS_PREFIX, organizationId, LEDGER_BATCH_SIZE);
    if (batch.length === 0) return total;
    const { committed, written, alertIds, lastUse, uncollected } = await writeIsolating(ctx, organizationId, batch);
    if (uncollected > 0n) {
      ctx.logger.error(
        { organizationId, uncollected: formatMicros(uncollected), balance: formatMicros(committed?.balance ?? 0n) },
        'ledger: settled charges exceeded the wallet (a mirror behind PostgreSQL: Redis restored from an older snapshot?); each took what the wallet held',
      );
    }
    // Before the acknowledgement: a worker killed in between writes the batch again (nothing) and records this again.
    await new CredentialCache(ctx.redis, ctx.config.REDIS_PREFIX).recordLastUse(lastUse, utcDay(new Date()));
    await ackStep(
      ctx.redis,
      ctx.config.REDIS_PREFIX,
      organizationId,
      committed ?? NOTHING_COMMITTED,
      batch.map((b) => b.streamId),
    );
    total.entries += batch.length;
    total.written += written;
    total.transactions += 1;
    if (alertIds.length > 0) await enqueueAlerts(ctx, alertIds);
    if (options.paced && batch.length < LEDGER_BATCH_SIZE) {
      // A settlement that found the stream non-empty asked for no write: whatever it appended is this job's to hand on.
      if ((await ctx.redis.xlen(mirrorKeys(ctx.config.REDIS_PREFIX, organizationId).l)) > 0) {
        await requestLedgerWrite(ctx, organizationId);
      }
      return total;
    }
    if (batch.length === LEDGER_BATCH_SIZE && Date.now() - started > JOB_BUDGET_MS) {
      await requestLedgerWrite(ctx, organizationId, 0);
      return total;
    }
  }
}

type Written = {
  /** The wallet after the batch's last transaction; none when every entry was set aside. */
  committed: { balance: bigint; seq: number } | undefined;
  written: number;
  alertIds: string[];
  /** Each API key's newest request in the batch (epoch ms). */
  lastUse: Map<string, number>;
  /** What the batch's charges asked beyond the wallet's balance, not taken (micro-units; 0 but after a drift). */
  uncollected: bigint;
};

/** One transaction: the batch's request logs, a Consume record per fresh entry that charged, the wallet row. */
async function writeBatch(db: Ctx['db'], organizationId: string, batch: StreamEntry[]): Promise<Written> {
  // A replayed settlement appends the request again: the first entry of an id is the one that counts.
  const seen = new Set<string>();
  const entries: (LedgerEntry & { charged: bigint })[] = [];
  const lastUse = new Map<string, number>();
  for (const item of batch) {
    const entry = decodeEntry(item.entry);
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    entries.push({ ...entry, charged: item.charged });
    if (entry.apiKeyId) lastUse.set(entry.apiKeyId, Math.max(lastUse.get(entry.apiKeyId) ?? 0, entry.finishedAt));
  }
  const written = await db.transaction(async (tx) => {
    const thresholds = await alertThresholds(tx, organizationId);
    // The lock orders this batch with recharges, refunds and other batches of the organization.
    const wallet = await lockWallet(tx, organizationId);
    const uncollected = await capToBalance(tx, entries, wallet.balance);
    const fresh = await insertRequestLogs(tx, entries);
    let balance = wallet.balance;
    let seq = wallet.recordSeq;
    const records: ConsumeRecord[] = [];
    const crossings: { threshold: bigint; balance: bigint; record: number }[] = [];
    for (const e of entries) {
      if (!fresh.has(e.id) || e.charged <= 0n) continue;
      const previousBalance = balance;
      balance -= e.charged;
      seq += 1;
      records.push({
        id: randomUUID(),
        seq,
        amount: e.charged,
        previousBalance,
        currentBalance: balance,
        description: consumeDescription(e),
        requestLogId: e.id,
      });
      for (const threshold of crossedThresholds(thresholds, { previous: previousBalance, current: balance })) {
        crossings.push({ threshold, balance, record: records.length - 1 });
      }
    }
    if (records.length === 0) return { committed: { balance, seq }, written: fresh.size, alertIds: [], uncollected };
    await insertConsumeRecords(tx, organizationId, records);
    await writeBalance(tx, organizationId, balance, seq);
    const alertIds =
      crossings.length === 0
        ? []
        : (
            await tx
              .insert(walletBalanceAlerts)
              .values(
                crossings.map((c) => ({
                  organizationId,
                  kind: 'balance' as const,
                  threshold: c.threshold,
                  balance: c.balance,
                  currency: wallet.currency,
                  recordId: records[c.record]?.id as string,
                })),
              )
              .onConflictDoNothing()
              .returning({ id: walletBalanceAlerts.id })
          ).map((r) => r.id);
    return { committed: { balance, seq }, written: fresh.size, alertIds, uncollected };
  });
  return { ...written, lastUse };
}

/** An acknowledgement that moves no mirror forward (the ack step takes a record number only above the mirror's). */
const NOTHING_COMMITTED = { balance: 0n, seq: 0 };

/**
 * At most this many entries of one organization are set aside in an hour. An entry refused for good is rare (each such
 * cause found so far was fixed at its source: a lone surrogate, a token count past the integer columns); many in a row
 * mean the writer, not the entries, is broken (a migration missing, say), and setting them all aside would serve the
 * organization's requests free and out of sight. Past it the batch fails as before: it waits, loudly.
 */
export const MAX_SET_ASIDE_PER_HOUR = 10;

/**
 * Whether PostgreSQL refused the batch for something an entry holds, which it will refuse again however often it is
 * sent: a data exception (class 22: a value out of range, a malformed uuid, text it cannot store), an integrity
 * violation (23: the organization gone, a constraint) or a program limit (54), or an entry not a settlement's. Anything
 * else (a lost connection, a deadlock, a database down) is retried by the job as before.
 */
const refusedForGood = (err: unknown) => err instanceof UnreadableEntry || /^(22|23|54)/.test(sqlStateOf(err) ?? '');

/**
 * Writes a batch; when PostgreSQL refuses it for good, writes each half the same way, in order, until the entries it
 * refuses alone are found (about two transactions per halving: twenty for one such entry in 1,000), and sets those
 * aside. The others are written as they would have been.
 */
async function writeIsolating(ctx: Ctx, organizationId: string, batch: StreamEntry[]): Promise<Written> {
  try {
    return await writeBatch(ctx.db, organizationId, batch);
  } catch (err) {
    if (!refusedForGood(err)) throw err;
    if (batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      const first = await writeIsolating(ctx, organizationId, batch.slice(0, half));
      const second = await writeIsolating(ctx, organizationId, batch.slice(half));
      return {
        committed: second.committed ?? first.committed,
        written: first.written + second.written,
        alertIds: [...first.alertIds, ...second.alertIds],
        lastUse: new Map([...first.lastUse, ...second.lastUse].sort(([, a], [, b]) => a - b)),
        uncollected: first.uncollected + second.uncollected,
      };
    }
    await setAside(ctx, organizationId, batch[0] as StreamEntry, err);
    return { committed: undefined, written: 0, alertIds: [], lastUse: new Map(), uncollected: 0n };
  }
}

/**
 * Keeps an entry PostgreSQL refuses alone in ledger_quarantine, as it waited in the stream, for the operator; the
 * caller then acknowledges it with its batch, which gives its charge back to the mirror: never written, it was never
 * taken (an undercharge, logged as an error). A second set-aside of it (a worker killed before the acknowledgement)
 * keeps the first row.
 */
async function setAside(ctx: Ctx, organizationId: string, item: StreamEntry, err: unknown): Promise<void> {
  const [recent] = await ctx.db
    .select({ n: count() })
    .from(ledgerQuarantine)
    .where(
      and(
        eq(ledgerQuarantine.organizationId, organizationId),
        gt(ledgerQuarantine.createdAt, sql`now() - interval '1 hour'`),
      ),
    );
  if ((recent?.n ?? 0) >= MAX_SET_ASIDE_PER_HOUR) throw err;
  const error = storableText(`${sqlStateOf(err) ?? 'unreadable'}: ${(err as Error).message}`).slice(0, 2000);
  await ctx.db
    .insert(ledgerQuarantine)
    .values({
      organizationId,
      streamId: item.streamId,
      entry: JSON.stringify(item.entry),
      charged: item.charged,
      error,
    })
    .onConflictDoNothing();
  ctx.logger.error(
    { organizationId, streamId: item.streamId, charged: formatMicros(item.charged), error },
    'ledger: PostgreSQL refuses this settled request; set aside in ledger_quarantine, its charge not taken',
  );
}

const smaller = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * The settlement charged at most what the mirror said was available, which is the wallet's balance less what waits
 * to be written, so a batch's charges fit the locked balance. They do not when the mirror was behind PostgreSQL (Redis
 * restored from an older snapshot, before the first acknowledgement or sweep brought it up): then each fresh entry,
 * in order, takes at most what is left, never below zero, as a settlement does, and the request log keeps the full
 * cost. Writing the stale charge would have broken `balance >= 0` and failed this batch, and so the organization's
 * every later write. Returns what was not taken. Only in that case does it read which entries are already written.
 */
async function capToBalance(
  tx: DbExecutor,
  entries: (LedgerEntry & { charged: bigint })[],
  balance: bigint,
): Promise<bigint> {
  let asked = 0n;
  for (const e of entries) if (e.charged > 0n) asked += e.charged;
  if (asked <= balance) return 0n;
  const written = await writtenRequestLogIds(
    tx,
    entries.filter((e) => e.charged > 0n).map((e) => e.id),
  );
  let left = balance;
  let uncollected = 0n;
  for (const e of entries) {
    if (e.charged <= 0n || written.has(e.id)) continue;
    const taken = smaller(left, e.charged);
    uncollected += e.charged - taken;
    left -= taken;
    e.charged = taken;
  }
  return uncollected;
}

/** Writes every organization's waiting entries now, in this process (tests, benchmarks, an operator's drain). */
export async function drainLedgers(ctx: Ctx): Promise<LedgerWrite> {
  const total: LedgerWrite = { entries: 0, written: 0, transactions: 0 };
  const kp = untaggedPrefix(ctx.config.REDIS_PREFIX);
  const organizations = new Set<string>();
  for await (const keys of scanKeys(ctx.redis, `${kp}:{o:*}:l`)) {
    for (const key of keys) organizations.add(key.slice(kp.length + 4, key.length - 3));
  }
  for (const organizationId of organizations) {
    const done = await writeLedger(ctx, organizationId);
    total.entries += done.entries;
    total.written += done.written;
    total.transactions += done.transactions;
  }
  return total;
}
