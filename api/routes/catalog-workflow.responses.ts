// What the catalog workflow answers (catalog-workflow.presenters.ts), as the OpenAPI document shows it: a mutation's
// result, a publisher's item in full (its versions and newest transitions), the review queue's entries, publisher
// namespaces, reports, and the moderators' curation answers.
import { z } from 'zod';
import { itemTypes } from '../../shared/catalog/item-types.js';
import { catalogItemStatus, catalogReportStatus, catalogVersionStatus } from '../../shared/db/schema/index.js';
import { itemsPage, timestamp } from '../openapi/response-parts.js';
import { catalogItemStats, catalogVersionDetail } from './catalog/catalog.responses.js';

const itemStatus = z.enum(catalogItemStatus.enumValues);
const versionStatus = z.enum(catalogVersionStatus.enumValues);

export const workflowMutation = z
  .object({
    id: z.uuid(),
    type: z.enum(itemTypes),
    slug: z.string(),
    status: itemStatus,
    versionId: z.uuid().optional().meta({ description: 'The version the step made or acted on.' }),
    version: z.string().optional(),
  })
  .meta({ id: 'WorkflowMutation' });

/** The item as its publisher will see it once its pending metadata edits are approved. */
const itemHeader = {
  id: z.uuid(),
  type: z.enum(itemTypes),
  slug: z.string(),
  name: z.string(),
  summary: z.string(),
  description: z.string(),
  iconUrl: z.string().optional(),
  tags: z.array(z.string()),
  categories: z.array(z.string()),
  status: itemStatus,
  isPublished: z.boolean().meta({ description: 'A version of the item is in the public catalog.' }),
  hasPendingChanges: z.boolean().meta({ description: 'Metadata edits wait for review (shown merged here).' }),
  publisherSlug: z.string(),
  publisherName: z.string(),
  source: z.enum(['official', 'user']),
  isFeatured: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  publishedAt: timestamp.optional(),
};

const transition = z.object({
  action: z.string().meta({ description: 'submit, withdraw, approve, request-changes, reject, …' }),
  from: itemStatus.optional(),
  to: itemStatus,
  comment: z.string().optional(),
  actedBy: z.enum(['publisher', 'moderator', 'system']).meta({
    description:
      'Who took the step, by kind: the publisher, a moderator, or the system (the skill-bundle check, the seed).',
  }),
  actorId: z.uuid().optional().meta({
    description:
      "The actor's account id. A moderator reads every actor's; a publisher only its own (no moderator's id there).",
  }),
  actorName: z
    .string()
    .optional()
    .meta({
      description:
        "The actor's display name now. A moderator reads every actor's; a publisher only its own (a moderator's step " +
        'names no one there).',
    }),
  versionId: z.uuid().optional(),
  at: timestamp,
});

export const draftDetail = z
  .object({
    ...itemHeader,
    stats: catalogItemStats,
    versions: z.array(
      catalogVersionDetail.extend({
        status: versionStatus,
        submittedAt: timestamp.optional(),
        isCurrent: z.boolean().meta({ description: 'The published version.' }),
        full: z
          .boolean()
          .meta({ description: 'The current and the pending version carry readme, changelog and their fields.' }),
        hasBundle: z.boolean().optional().meta({ description: 'Skills only: a bundle is stored.' }),
        bundleUploadedAt: timestamp.optional().meta({
          description:
            'Skills only: when the stored bundle was uploaded (absent for a bundle stored before this was recorded, 2026-11-27).',
        }),
      }),
    ),
    transitions: z.array(transition).meta({ description: 'The newest workflow steps, oldest first.' }),
    reviewRevision: z.string().meta({ description: 'What a moderator decides on (also the ETag).' }),
  })
  .meta({ id: 'DraftDetail' });

export const workflowEntry = z
  .object({
    ...itemHeader,
    currentVersion: z.string().optional().meta({ description: 'The published version number.' }),
    pendingVersion: z
      .object({ id: z.uuid(), version: z.string(), status: versionStatus, submittedAt: timestamp.optional() })
      .optional()
      .meta({ description: 'The newest version not yet published.' }),
  })
  .meta({ id: 'WorkflowEntry' });

export const ownItemEntry = workflowEntry.extend({ stats: catalogItemStats }).meta({
  id: 'OwnItemEntry',
  description: "An item in its owner's list, with its counters and rating (all 0 until it is published).",
});

export const reviewQueuePage = itemsPage(
  workflowEntry
    .extend({ submitComment: z.string().optional().meta({ description: "The publisher's note to the reviewers." }) })
    .meta({ id: 'ReviewQueueEntry' }),
);

export const publisher = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    verified: z.boolean().meta({ description: 'Its items are `official` (set by a platform Admin).' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Publisher' });

export const deletedDraft = z.object({
  deleted: z.literal(true),
  id: z.uuid(),
  slug: z.string().meta({ description: 'Free again for a new item of the type.' }),
});

export const uploadedBundle = z.object({
  versionId: z.uuid(),
  sizeBytes: z.number().int().nonnegative().meta({ description: 'The zip as stored.' }),
  fileCount: z.number().int().nonnegative(),
  sha256: z.string().meta({ description: 'Of the zip, hex.' }),
});

/** A report as resolving it answers; the list adds the item's type, slug and name, and its publisher's public fields. */
export const report = z
  .object({
    id: z.uuid(),
    status: z.enum(catalogReportStatus.enumValues),
    reason: z.string(),
    detail: z.string().optional(),
    reporterId: z.uuid(),
    itemId: z.uuid(),
    resolution: z.string().optional(),
    resolvedBy: z.uuid().optional().meta({ description: 'Absent once that account is deleted.' }),
    resolvedAt: timestamp.optional(),
    createdAt: timestamp,
  })
  .meta({ id: 'Report' });

export const reportsPage = itemsPage(
  report
    .extend({
      itemType: z.enum(itemTypes),
      itemSlug: z.string(),
      itemName: z.string(),
      publisherSlug: z.string().meta({ description: "The item's publisher namespace, as its public page shows it." }),
      publisherName: z.string(),
      source: z.enum(['official', 'user']).meta({ description: '`official` for a verified publisher.' }),
    })
    .meta({ id: 'ReportListEntry' }),
);

/** A resolved report; with `sameItem`, the other open reports of its item resolved with it. */
export const resolvedReport = report.extend({
  alsoResolved: z
    .array(z.uuid())
    .optional()
    .meta({ description: 'With sameItem: the ids of the other reports of the item this resolved (possibly none).' }),
});

/** A moderator's removal; with `resolveReports`, the reports of the item it resolved. */
export const removal = workflowMutation.extend({
  reportsResolved: z
    .array(z.uuid())
    .optional()
    .meta({ description: 'With resolveReports: the ids of the open reports of the item this resolved.' }),
});

/** A moderator's own decision (GET /api/v1/moderation/decisions). */
export const ownDecisionsPage = itemsPage(
  z
    .object({
      id: z.uuid(),
      action: z.enum(['approve', 'request_changes', 'reject', 'remove']),
      itemId: z.uuid(),
      itemType: z.enum(itemTypes),
      itemSlug: z.string(),
      itemName: z.string().meta({ description: "The item's name now." }),
      versionId: z.uuid().optional().meta({ description: 'The version decided on (a removal: the one taken off).' }),
      version: z.string().optional(),
      from: itemStatus.optional(),
      to: itemStatus,
      comment: z.string().optional().meta({ description: 'The comment or reason given.' }),
      at: timestamp,
    })
    .meta({ id: 'OwnDecision' }),
);

export const category = z.object({ slug: z.string(), name: z.string() });

export const featured = z.object({ id: z.uuid(), slug: z.string(), isFeatured: z.boolean() });
