// Top-up codes (SPEC section 4): a platform Admin issues single-use codes worth an amount; each code is shown once
// and stored only as a keyed hash (HMAC-SHA256 with SECRET_KEY, as API keys are). Listing and revoking are here;
// redeeming a code into a wallet is in top-up-redemption.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, gt, isNotNull, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { Config } from '../config/index.js';
import type { DbExecutor } from '../db/client.js';
import { readPage } from '../db/page.js';
import { walletRecords, walletTopUpCodes } from '../db/schema/index.js';
import { badRequest, conflict, notFound } from '../errors/app-error.js';
import { keyedHash } from '../identity/tokens.js';
import { formatMicros } from './money.js';
import type { TopUpCodeStatus } from './top-up-code-rules.js';

export type TopUpCode = typeof walletTopUpCodes.$inferSelect;
export { type TopUpCodeStatus, topUpCodeStatuses } from './top-up-code-rules.js';

const PREFIX = 'OTC';
/** Crockford's base32: no I, L, O or U, so a code read aloud or typed from paper survives. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 25 characters of 5 bits: 125 random bits. */
const CODE_CHARS = 25;
const GROUP = 5;

/** `OTC-XXXXX-XXXXX-XXXXX-XXXXX-XXXXX`; 32 divides 256, so `byte & 31` keeps every character uniform. */
export function newTopUpCode(): string {
  const chars = [...randomBytes(CODE_CHARS)].map((byte) => ALPHABET[byte & 31]).join('');
  const groups = Array.from({ length: CODE_CHARS / GROUP }, (_, i) => chars.slice(i * GROUP, (i + 1) * GROUP));
  return [PREFIX, ...groups].join('-');
}

/** The canonical form of a code as typed (any letter case, spaces or hyphens anywhere), or undefined if it is none. */
export function canonicalTopUpCode(input: string): string | undefined {
  const compact = input.toUpperCase().replace(/[\s-]/g, '');
  if (!compact.startsWith(PREFIX)) return undefined;
  const body = compact.slice(PREFIX.length);
  if (body.length !== CODE_CHARS || [...body].some((ch) => !ALPHABET.includes(ch))) return undefined;
  return `${PREFIX}${body}`;
}

/** The keyed hash of a canonical code under `secret` (SECRET_KEY, or SECRET_KEY_PREVIOUS during a rotation). */
export const topUpCodeHashUnder = (secret: string, canonical: string) => keyedHash(secret, `top-up:${canonical}`);

export const hashTopUpCode = (config: Pick<Config, 'SECRET_KEY'>, canonical: string) =>
  topUpCodeHashUnder(config.SECRET_KEY, canonical);

export const topUpCodeNotFound = () => notFound('TopUpCode.NotFound', 'No such top-up code.');

export function statusOf(code: TopUpCode, now: Date = new Date()): TopUpCodeStatus {
  if (code.redeemedAt) return 'redeemed';
  if (code.revokedAt) return 'revoked';
  return code.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

export type IssueInput = {
  amount: bigint;
  count: number;
  expiresAt: Date;
  description?: string;
  createdBy: string;
  /** Who issued them, for the audit row written with the codes. */
  audit?: AuditActor;
};
export type IssuedTopUpCodes = { batchId: string; codes: { record: TopUpCode; code: string }[] };

/** Issues `count` codes of `amount` in one statement; the codes are in the answer and nowhere else. */
export async function issueTopUpCodes(
  db: DbExecutor,
  config: Pick<Config, 'SECRET_KEY'>,
  input: IssueInput,
  now: Date = new Date(),
): Promise<IssuedTopUpCodes> {
  if (input.expiresAt.getTime() <= now.getTime()) {
    throw badRequest('TopUpCode.Invalid', 'expiresAt: must be in the future.');
  }
  if (input.amount <= 0n) throw new RangeError('a top-up code must be worth a positive amount');
  const batchId = randomUUID();
  const codes = Array.from({ length: input.count }, () => {
    const code = newTopUpCode();
    return { code, hash: hashTopUpCode(config, canonicalTopUpCode(code) as string) };
  });
  const rows = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(walletTopUpCodes)
      .values(
        codes.map(({ code, hash }) => ({
          codeHash: hash,
          codeHint: code.slice(-4),
          batchId,
          amount: input.amount,
          description: input.description ?? null,
          expiresAt: input.expiresAt,
          createdBy: input.createdBy,
        })),
      )
      .returning();
    if (input.audit) {
      await recordAudit(tx, input.audit, {
        action: 'top_up_code.issue',
        target: { type: 'top_up_code_batch', id: batchId },
        after: {
          amount: formatMicros(input.amount),
          count: input.count,
          expiresAt: input.expiresAt.toISOString(),
          codeIds: inserted.map((r) => r.id),
        },
      });
    }
    return inserted;
  });
  const byHash = new Map(rows.map((r) => [r.codeHash, r]));
  return {
    batchId,
    codes: codes.map(({ code, hash }) => {
      const record = byHash.get(hash);
      if (!record) throw new Error('top-up code insert returned fewer rows than codes');
      return { record, code };
    }),
  };
}

function statusFilter(status: TopUpCodeStatus | undefined): SQL | undefined {
  const now = sql`now()`;
  const t = walletTopUpCodes;
  switch (status) {
    case 'redeemed':
      return isNotNull(t.redeemedAt);
    case 'revoked':
      return and(isNull(t.redeemedAt), isNotNull(t.revokedAt));
    case 'expired':
      return and(isNull(t.redeemedAt), isNull(t.revokedAt), lte(t.expiresAt, now));
    case 'active':
      return and(isNull(t.redeemedAt), isNull(t.revokedAt), gt(t.expiresAt, now));
    default:
      return undefined;
  }
}

export type ListedTopUpCode = { code: TopUpCode; recordId: string | null };

/** Newest first, with the Recharge record a redeemed code wrote. */
export async function listTopUpCodes(
  db: DbExecutor,
  query: { status?: TopUpCodeStatus; batchId?: string; page: number; pageSize: number },
) {
  const where = and(
    statusFilter(query.status),
    query.batchId ? eq(walletTopUpCodes.batchId, query.batchId) : undefined,
  );
  const codes = db
    .select({ code: walletTopUpCodes, recordId: walletRecords.id })
    .from(walletTopUpCodes)
    .leftJoin(walletRecords, eq(walletRecords.topUpCodeId, walletTopUpCodes.id))
    .where(where)
    .orderBy(desc(walletTopUpCodes.createdAt), desc(walletTopUpCodes.id));
  return readPage<ListedTopUpCode>(db, codes, walletTopUpCodes, where, query);
}

/** Revokes a code nobody redeemed; revoking it again answers it unchanged; a redeemed code is 409. */
export async function revokeTopUpCode(db: DbExecutor, id: string, audit?: AuditActor): Promise<TopUpCode> {
  const revoked = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(walletTopUpCodes)
      .set({ revokedAt: new Date() })
      .where(and(eq(walletTopUpCodes.id, id), isNull(walletTopUpCodes.redeemedAt), isNull(walletTopUpCodes.revokedAt)))
      .returning();
    if (row && audit) {
      await recordAudit(tx, audit, {
        action: 'top_up_code.revoke',
        target: { type: 'top_up_code', id: row.id },
        before: { status: 'active' },
        after: { status: 'revoked' },
      });
    }
    return row;
  });
  if (revoked) return revoked;
  const [code] = await db.select().from(walletTopUpCodes).where(eq(walletTopUpCodes.id, id));
  if (!code) throw topUpCodeNotFound();
  if (code.redeemedAt)
    throw conflict('TopUpCode.Redeemed', 'This top-up code was redeemed; it can no longer be revoked.');
  return code;
}
