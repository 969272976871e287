// The four catalog item types, their names in error codes, and the slug and version rules of SPEC section 2.
import semver from 'semver';

export const itemTypes = ['mcp', 'skill', 'agent', 'soul'] as const;
export type ItemType = (typeof itemTypes)[number];

export const isItemType = (value: unknown): value is ItemType =>
  typeof value === 'string' && (itemTypes as readonly string[]).includes(value);

/** The prefix of a type's error codes: `Mcp.NotFound`, `Skill.NotEditable`, ... */
export const typeCode: Record<ItemType, string> = { mcp: 'Mcp', skill: 'Skill', agent: 'Agent', soul: 'Soul' };

export const slugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const isSlug = (value: string, max = 64) => value.length >= 2 && value.length <= max && slugPattern.test(value);

/** Path segments under /api/v1/{type}/ that are routes, so no item may use them as its slug. */
export const reservedSlugs = new Set(['categories']);

/** A version string is canonical semver (no leading `v`), at most 64 characters. */
export const isVersionString = (value: string) => value.length <= 64 && semver.valid(value) === value;

/** The item statuses in which a publisher may edit metadata or add content. */
export const editableStatuses = ['draft', 'changes_requested', 'rejected'] as const;
export type ItemStatus = 'draft' | 'in_review' | 'published' | 'changes_requested' | 'rejected';
export const isEditable = (status: ItemStatus) => (editableStatuses as readonly string[]).includes(status);
