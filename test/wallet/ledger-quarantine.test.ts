// An entry PostgreSQL refuses for good (or one that is not a settlement's) used to fail its batch, and, first in the
// organization's stream, every later batch: the organization's requests piled up until LEDGER_BACKLOG_LIMIT refused
// them all (503). Each such cause found was fixed at its source (a lone surrogate, a token count past the integer
// columns); the writer now also sets any such entry aside in ledger_quarantine, writes the rest, and gives its charge
// back to the mirror. Many in an hour stop that: the batch then fails and waits, as before.
import { eq } from 'drizzle-orm';
import { ledgerQuarantine, requestLogs } from '../../shared/db/schema/index.js';
import { MAX_SET_ASIDE_PER_HOUR } from '../../shared/wallet/ledger-writer.js';
import { mirrorKeys } from '../../shared/wallet/mirror-steps.js';
import { setAsideEntries } from '../../shared/wallet/reconciliation.js';
import { type GatewayWorld, helloMessage, openGatewayWorld, walletOf, writeLedgers } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { walletProblems } from '../support/wallet-spend.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w?.close());

const call = () => helloMessage(w.h, w.key);

const keys = () => mirrorKeys(w.h.ctx.config.REDIS_PREFIX, w.org.id);

/** Appends an entry to the organization's stream as the settlement step does, its charge pending in the mirror. */
async function appendEntry(entry: string, charged: number) {
  const id = await w.h.ctx.redis.xadd(keys().l, '*', 'e', entry, 'c', String(charged), 'r', '0');
  await w.h.ctx.redis.hincrby(keys().w, 'pend', charged);
  return id as string;
}

/** Settles `n` real requests, leaving them in the stream. */
async function settled(n: number) {
  const before = await w.h.ctx.redis.xlen(keys().l);
  expect((await Promise.all(Array.from({ length: n }, call))).map((r) => r.status)).toEqual(Array(n).fill(200));
  await waitUntil(async () => (await w.h.ctx.redis.xlen(keys().l)) >= before + n);
}

const quarantined = () =>
  w.h.ctx.db.select().from(ledgerQuarantine).where(eq(ledgerQuarantine.organizationId, w.org.id));

it('sets aside the entries PostgreSQL refuses alone, writes the others, and gives their charges back', async () => {
  await writeLedgers(w.h);
  const available = (await walletOf(w.h, w.org)).balance;
  await settled(3);
  const real = JSON.parse((await w.h.ctx.redis.xrange(keys().l, '-', '+'))[0]?.[1][1] ?? '{}');
  const unreadable = await appendEntry('{"not":"a settlement"', 7);
  await settled(2);
  // Valid JSON, but its project id is no uuid: PostgreSQL refuses the batch (22P02) whatever else it holds.
  const refused = await appendEntry(JSON.stringify({ ...real, id: crypto.randomUUID(), projectId: 'no-uuid' }), 11);
  await settled(1);
  const spentOnReal = (await walletOf(w.h, w.org)).balance;

  const done = await writeLedgers(w.h);
  expect(done.entries).toBe(8);
  expect(done.written).toBe(6);
  expect(await w.h.ctx.redis.xlen(keys().l)).toBe(0);
  const logs = await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.projectId, w.projectId));
  expect(logs.length).toBeGreaterThanOrEqual(6);
  const aside = await quarantined();
  expect(aside.map((q) => [q.streamId, q.charged]).sort()).toEqual(
    [
      [unreadable, 7n],
      [refused, 11n],
    ].sort(),
  );
  expect(aside.find((q) => q.streamId === refused)?.error).toMatch(/^22P02: /);
  expect(JSON.parse(aside.find((q) => q.streamId === unreadable)?.entry ?? '')).toBe('{"not":"a settlement"');
  // Their 18 micro-units were never taken: the wallet holds them again, and every check of `wallet:check` agrees.
  expect((await walletOf(w.h, w.org)).balance).toBeCloseTo(spentOnReal + 0.000018, 6);
  expect((await walletOf(w.h, w.org)).balance).toBeLessThan(available);
  expect(await walletProblems(w.h.ctx, w.org.id)).toEqual([]);
  // `npm run wallet:check` names them, without calling them a difference.
  expect((await setAsideEntries(w.h.ctx.db)).find((s) => s.organizationId === w.org.id)).toEqual({
    organizationId: w.org.id,
    entries: 2,
    charged: '0.000018',
  });
});

it(`stops setting entries aside past ${MAX_SET_ASIDE_PER_HOUR} in an hour: the batch fails and waits, as before`, async () => {
  const already = (await quarantined()).length;
  for (let i = already; i < MAX_SET_ASIDE_PER_HOUR; i++) await appendEntry(`broken ${i}`, 1);
  await writeLedgers(w.h);
  expect(await quarantined()).toHaveLength(MAX_SET_ASIDE_PER_HOUR);
  const waiting = await appendEntry('broken once more', 1);
  await expect(writeLedgers(w.h)).rejects.toThrow(/not a ledger entry/);
  expect((await w.h.ctx.redis.xrange(keys().l, '-', '+')).map(([id]) => id)).toEqual([waiting]);
  expect(await quarantined()).toHaveLength(MAX_SET_ASIDE_PER_HOUR);
  // An operator who has looked at them clears the rows; the next write sets the entry aside.
  await w.h.ctx.db.delete(ledgerQuarantine).where(eq(ledgerQuarantine.organizationId, w.org.id));
  await writeLedgers(w.h);
  expect((await quarantined()).map((q) => q.streamId)).toEqual([waiting]);
  expect(await walletProblems(w.h.ctx, w.org.id)).toEqual([]);
});
