// The publisher side of the catalog: namespaces, own items, a draft in full, and the shapes they come in.
import { useQuery } from '@tanstack/react-query';
import { typeCode } from '../../../../shared/catalog/item-types.js';
import { api } from '../../api/http.js';
import { apiPath, notFoundError } from '../../api/paths.js';
import type { ItemStatsFigures } from '../../ui/item-stats.js';
import type { ItemType, VersionDetail } from '../hub/hub-api.js';

/** What the API answers for an item id that names nothing (`Mcp.NotFound`, `Skill.NotFound`, ...). */
export const itemNotFound = (type: ItemType) => notFoundError(`${typeCode[type]}.NotFound`, 'No such item.');

export type PublisherNamespace = { id: string; slug: string; name: string; verified: boolean; createdAt: string };

export type WorkflowEntry = {
  id: string;
  type: ItemType;
  slug: string;
  name: string;
  summary: string;
  description: string;
  iconUrl?: string;
  tags: string[];
  categories: string[];
  status: 'draft' | 'in_review' | 'published' | 'changes_requested' | 'rejected';
  isPublished: boolean;
  hasPendingChanges: boolean;
  publisherSlug: string;
  publisherName: string;
  currentVersion?: string;
  pendingVersion?: { id: string; version: string; status: string; submittedAt?: string };
  updatedAt: string;
  submitComment?: string;
  /** Its counters and rating: in the owner's list and detail (not in the review queue). */
  stats?: ItemStatsFigures;
};

/**
 * A version of a draft detail. Only the current and the pending version come `full` (readme, changelog, the type's
 * fields); the others carry id, version, status and dates.
 */
export type DraftVersion = VersionDetail & {
  full: boolean;
  status: string;
  submittedAt?: string;
  isCurrent: boolean;
  hasBundle?: boolean;
  /** Skills: when the stored bundle was uploaded. */
  bundleUploadedAt?: string;
};

export type Transition = {
  action: string;
  from?: string;
  to: string;
  comment?: string;
  /** Who took the step, by kind (the system: the skill-bundle check, the seed). */
  actedBy?: 'publisher' | 'moderator' | 'system';
  /** The actor's account id: every actor's for a moderator, only the publisher's own for the publisher. */
  actorId?: string;
  /** The actor's display name: every actor's for a moderator, only the publisher's own for the publisher. */
  actorName?: string;
  versionId?: string;
  at: string;
};

export type DraftDetail = Omit<WorkflowEntry, 'currentVersion' | 'pendingVersion'> & {
  versions: DraftVersion[];
  transitions: Transition[];
  /** What a moderator's decision names in If-Match: the state this detail shows. */
  reviewRevision: string;
};

export type Mutation = {
  id: string;
  type: ItemType;
  slug: string;
  status: string;
  versionId?: string;
  version?: string;
};

export const usePublishers = () =>
  useQuery({
    queryKey: ['publishers'],
    queryFn: () => api<PublisherNamespace[]>('/api/v1/publisher/publishers'),
  });

export const useMine = (type: ItemType) =>
  useQuery({ queryKey: ['mine', type], queryFn: () => api<WorkflowEntry[]>(apiPath`/api/v1/publisher/${type}/mine`) });

/** The version a publisher is working on: the newest one not yet published (draft, in review, sent back). */
export const pendingVersionOf = (detail: { versions: DraftVersion[] }) =>
  detail.versions.find((v) => ['draft', 'in_review', 'changes_requested', 'rejected'].includes(v.status));
