// Bulk invite: validates every row, reports duplicates (in the file and existing members), and for each valid
// row issues a single-use invite token bound to that e-mail and role, all in one transaction with its report.

import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { type AuditActor, recordAudit } from '../audit/audit-log.js';
import type { AppContext } from '../context.js';
import type { DbExecutor } from '../db/client.js';
import {
  accounts,
  type BulkImportRecord,
  inviteTokens,
  type OrganizationRole,
  organizationBulkImports,
  organizationMemberships,
} from '../db/schema/index.js';
import { notFound } from '../errors/app-error.js';
import { allowance } from '../rate-limit/within-allowance.js';
import { isUuid } from '../validation/uuid.js';
import { type BulkInviteRow, parseBulkInviteCsv } from './bulk-invite-csv.js';
import { hashInviteToken, inviteUrlFor, newInviteToken } from './invite-tokens.js';

/** How long the invite of a bulk row stays valid. */
export const bulkInviteLifetimeMs = 7 * 24 * 3_600_000;

export type BulkImportReportRecord = Omit<BulkImportRecord, 'inviteTokenId'> & { inviteUrl?: string };
export type BulkImportResult = {
  id: string;
  status: 'Completed';
  totalCount: number;
  successCount: number;
  failureCount: number;
  duplicateCount: number;
  createdAt: Date;
  records: BulkImportReportRecord[];
};

/**
 * Bulk invites one account may store per hour, in any of its organizations. Each stores a report of up to 500 rows
 * and as many invite tokens; unlimited (the organization routes do not count the daily quota), one account wrote
 * ~1 MB of report per upload into PostgreSQL, several a second.
 */
export const BULK_INVITES_PER_HOUR = 10;
const limitedBulkInvite = allowance({
  name: 'bulk-invite',
  windowMs: 3_600_000,
  limit: () => BULK_INVITES_PER_HOUR,
  code: 'BulkInvite.TooMany',
  message: `At most ${BULK_INVITES_PER_HOUR} bulk invites per account and hour: try again later (see Retry-After).`,
});

/** A report keeps a cell only as long as a valid one can be (an e-mail 254 characters, a name 200): `…` marks a cut. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** As long as the invite's acceptance takes (acceptInviteBody). */
const emailSchema = z.email().max(254);
export const bulkImportNotFound = () => notFound('BulkInvite.NotFound', 'No such bulk import.');
const roles: Record<string, OrganizationRole> = { admin: 'Admin', member: 'Member' };

type Judged = BulkImportRecord & { normalizedEmail: string };

function judgeRow(row: BulkInviteRow): Judged {
  const stored = { row: row.row, email: cut(row.email, 254), name: cut(row.name, 200), role: cut(row.role, 20) };
  const base = { ...stored, normalizedEmail: row.email.toLowerCase() };
  if (!emailSchema.safeParse(row.email).success) {
    return { ...base, status: 'Failed', error: `"${stored.email}" is not a valid e-mail address.` };
  }
  if (row.name.length === 0) return { ...base, status: 'Failed', error: 'name is required.' };
  if (row.name.length > 200) return { ...base, status: 'Failed', error: 'name is longer than 200 characters.' };
  const role = roles[row.role.toLowerCase()];
  if (!role) return { ...base, status: 'Failed', error: `role must be Admin or Member, not "${stored.role}".` };
  return { ...base, role, status: 'Success' };
}

/** `createdBy` is the Admin uploading; `actor` (the same, with credential and address) signs the audit row. */
export async function bulkInvite(
  ctx: Pick<AppContext, 'db' | 'config' | 'redis'>,
  organizationId: string,
  createdBy: string,
  file: Uint8Array,
  actor: AuditActor,
  now: Date = new Date(),
): Promise<BulkImportResult> {
  const rows = parseBulkInviteCsv(file).map(judgeRow);
  // Counted once the file is read: a refused file stores nothing and uses no place.
  return limitedBulkInvite(ctx, createdBy, () => storeBulkInvite(ctx, organizationId, { createdBy, actor }, rows, now));
}

/** Marks duplicates (in the file, and members already), then stores the report and issues the tokens. */
async function storeBulkInvite(
  ctx: Pick<AppContext, 'db' | 'config'>,
  organizationId: string,
  { createdBy, actor }: { createdBy: string; actor: AuditActor },
  rows: Judged[],
  now: Date,
): Promise<BulkImportResult> {
  const firstRowOf = new Map<string, number>();
  for (const r of rows) {
    if (r.status !== 'Success') continue;
    const first = firstRowOf.get(r.normalizedEmail);
    if (first === undefined) firstRowOf.set(r.normalizedEmail, r.row);
    else
      Object.assign(r, { status: 'Duplicate', error: `The same e-mail appears earlier in the file (row ${first}).` });
  }

  return ctx.db.transaction(async (tx) => {
    const candidates = rows.filter((r) => r.status === 'Success').map((r) => r.normalizedEmail);
    const existing = candidates.length
      ? await tx
          .select({ email: sql<string>`lower(${accounts.email})` })
          .from(organizationMemberships)
          .innerJoin(accounts, eq(accounts.id, organizationMemberships.accountId))
          .where(
            and(
              eq(organizationMemberships.organizationId, organizationId),
              inArray(sql`lower(${accounts.email})`, candidates),
            ),
          )
      : [];
    const members = new Set(existing.map((e) => e.email));
    for (const r of rows) {
      if (r.status === 'Success' && members.has(r.normalizedEmail)) {
        Object.assign(r, { status: 'Duplicate', error: 'Already a member of this organization.' });
      }
    }

    const importId = randomUUID();
    const expiresAt = new Date(now.getTime() + bulkInviteLifetimeMs);
    const issued = rows
      .filter((r) => r.status === 'Success')
      .map((r) => ({ row: r, id: randomUUID(), token: newInviteToken() }));
    for (const i of issued) i.row.inviteTokenId = i.id;

    const stored: BulkImportRecord[] = rows.map(({ normalizedEmail: _n, ...r }) => r);
    const successCount = issued.length;
    const duplicateCount = rows.filter((r) => r.status === 'Duplicate').length;
    const [saved] = await tx
      .insert(organizationBulkImports)
      .values({
        id: importId,
        organizationId,
        createdBy,
        totalCount: rows.length,
        successCount,
        failureCount: rows.length - successCount,
        records: stored,
      })
      .returning();
    if (!saved) throw new Error('bulk import insert returned nothing');
    if (issued.length > 0) {
      await tx.insert(inviteTokens).values(
        issued.map((i) => ({
          id: i.id,
          organizationId,
          tokenHash: hashInviteToken(ctx.config, i.token),
          description: `Bulk invite for ${i.row.email}`,
          role: i.row.role as OrganizationRole,
          email: i.row.normalizedEmail,
          maxUsageCount: 1,
          expiresAt,
          bulkImportId: importId,
          createdBy,
        })),
      );
    }
    // One row for the whole file, as for a batch of top-up codes: the tokens' ids, how many grant Admin (#135).
    if (issued.length > 0) {
      await recordAudit(tx, actor, {
        action: 'invite_token.issue',
        organizationId,
        target: { type: 'bulk_import', id: importId },
        after: {
          count: issued.length,
          admins: issued.filter((i) => i.row.role === 'Admin').length,
          maxUsageCount: 1,
          expiresAt: expiresAt.toISOString(),
          emailBound: true,
          inviteTokenIds: issued.map((i) => i.id),
        },
      });
    }
    const urls = new Map<string, string>(issued.map((i) => [i.id, inviteUrlFor(ctx.config, i.token)]));
    return {
      id: saved.id,
      status: saved.status,
      totalCount: saved.totalCount,
      successCount,
      failureCount: saved.failureCount,
      duplicateCount,
      createdAt: saved.createdAt,
      records: stored.map(({ inviteTokenId, ...r }) => ({
        ...r,
        ...(inviteTokenId ? { inviteUrl: urls.get(inviteTokenId) } : {}),
      })),
    };
  });
}

/** A stored report, as returned at upload but without the invite URLs (their tokens are never stored). */
export async function getBulkImport(db: DbExecutor, organizationId: string, id: string): Promise<BulkImportResult> {
  if (!isUuid(id)) throw bulkImportNotFound();
  const [row] = await db
    .select()
    .from(organizationBulkImports)
    .where(and(eq(organizationBulkImports.id, id), eq(organizationBulkImports.organizationId, organizationId)));
  if (!row) throw bulkImportNotFound();
  return {
    id: row.id,
    status: row.status,
    totalCount: row.totalCount,
    successCount: row.successCount,
    failureCount: row.failureCount,
    duplicateCount: row.records.filter((r) => r.status === 'Duplicate').length,
    createdAt: row.createdAt,
    records: row.records.map(({ inviteTokenId: _id, ...r }) => r),
  };
}
