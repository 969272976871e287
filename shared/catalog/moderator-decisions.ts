// A moderator's own decisions, newest first: the review history's approve, request_changes, reject and remove steps
// this account took, with the item (and the version) each was about. Read from the history (catalog_transitions),
// which holds every decision since the catalog began; the audit log holds only those since 2026-11-27.
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type PageQuery, readPage } from '../db/page.js';
import { catalogItems, catalogTransitions, catalogVersions } from '../db/schema/index.js';

export const decisionActions = ['approve', 'request_changes', 'reject', 'remove'] as const;

const t = catalogTransitions;

/** One page of the decisions `accountId` took (index catalog_transitions_actor_idx: actor, then newest first). */
export async function listOwnDecisions(db: Database, accountId: string, query: PageQuery) {
  const where = and(eq(t.actorAccountId, accountId), inArray(t.action, [...decisionActions]));
  const rows = db
    .select({
      transition: t,
      itemType: catalogItems.type,
      itemSlug: catalogItems.slug,
      itemName: catalogItems.name,
      version: catalogVersions.version,
    })
    .from(t)
    .innerJoin(catalogItems, eq(catalogItems.id, t.itemId))
    .leftJoin(catalogVersions, eq(catalogVersions.id, t.versionId))
    .where(where)
    .orderBy(desc(t.createdAt), desc(t.id));
  return readPage(db, rows, t, where, query);
}

export type OwnDecisionRow = Awaited<ReturnType<typeof listOwnDecisions>>['items'][number];
