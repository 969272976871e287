// Project templates: the built-in system ones and an organization's custom ones, with their visibility rules.

import { and, count, eq, or, type SQL, sql } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { projectTemplates, type TemplateCategory, type TemplateConfig } from '../db/schema/index.js';
import { conflict, notFound } from '../errors/app-error.js';
import { isUuid } from '../validation/uuid.js';
import { countHeldUnderLock, MAX_TEMPLATES_PER_ORGANIZATION, organizationLimitErrors } from './organization-limits.js';
import { systemTemplates } from './system-templates.js';

export type ProjectTemplate = typeof projectTemplates.$inferSelect;
export type TemplateInput = {
  name: string;
  description?: string | undefined;
  category: TemplateCategory;
  tags: string[];
  isPublic: boolean;
  icon?: string | undefined;
  config: TemplateConfig;
};

export const templateNotFound = () => notFound('Template.NotFound', 'No such project template.');

/** System and public templates are visible to everyone; a private custom one only to its organization. */
function visibleTo(organizationId: string | undefined): SQL {
  const shared = or(eq(projectTemplates.isSystem, true), eq(projectTemplates.isPublic, true)) as SQL;
  return organizationId ? (or(shared, eq(projectTemplates.organizationId, organizationId)) as SQL) : shared;
}

/**
 * Public templates one organization may publish. Every organization's public templates are listed to every other
 * one, and anyone can make an organization: the limit keeps one account from filling everybody's list.
 */
export const MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION = 20;

/** The largest page of `GET /api/project-templates` (also its default, so one page usually holds the whole list). */
export const MAX_TEMPLATES_PAGE_SIZE = 100;

export const publicTemplateLimitReached = () =>
  conflict(
    'Template.PublicLimitReached',
    `An organization may publish at most ${MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION} public templates; create this one as private.`,
  );

/**
 * The list's order: the built-in templates, then the organization's own, then other organizations' public ones,
 * each oldest first. So what the organization relies on comes first, whatever others publish.
 */
function listOrder(organizationId: string | undefined): SQL {
  const own = organizationId ? sql`when ${projectTemplates.organizationId} = ${organizationId} then 1` : sql``;
  return sql`case when ${projectTemplates.isSystem} then 0 ${own} else 2 end`;
}

export async function listTemplates(
  db: DbExecutor,
  organizationId: string | undefined,
  filter: { isPublic?: boolean | undefined; page: number; size: number },
): Promise<{ templates: ProjectTemplate[]; total: number }> {
  const conditions = [visibleTo(organizationId)];
  if (filter.isPublic !== undefined) conditions.push(eq(projectTemplates.isPublic, filter.isPublic));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(projectTemplates)
      .where(where)
      .orderBy(listOrder(organizationId), projectTemplates.createdAt, projectTemplates.id)
      .limit(filter.size)
      .offset((filter.page - 1) * filter.size),
    db.select({ n: count() }).from(projectTemplates).where(where),
  ]);
  return { templates: rows, total: total?.n ?? 0 };
}

/**
 * Creates an organization's template, counted against MAX_TEMPLATES_PER_ORGANIZATION and, when public,
 * MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION, with the organization row locked (organization-limits.ts), so concurrent
 * creates cannot pass a limit together.
 */
export async function createTemplate(
  db: DbExecutor,
  organizationId: string,
  createdBy: string,
  input: TemplateInput,
): Promise<ProjectTemplate> {
  return db.transaction(async (tx) => {
    const own = eq(projectTemplates.organizationId, organizationId);
    if ((await countHeldUnderLock(tx, organizationId, projectTemplates, own)) >= MAX_TEMPLATES_PER_ORGANIZATION) {
      throw organizationLimitErrors.templates();
    }
    if (input.isPublic) {
      const [published] = await tx
        .select({ n: count() })
        .from(projectTemplates)
        .where(and(own, eq(projectTemplates.isPublic, true)));
      if ((published?.n ?? 0) >= MAX_PUBLIC_TEMPLATES_PER_ORGANIZATION) throw publicTemplateLimitReached();
    }
    const [row] = await tx
      .insert(projectTemplates)
      .values({
        organizationId,
        createdBy,
        name: input.name,
        description: input.description ?? null,
        category: input.category,
        tags: input.tags,
        isSystem: false,
        isPublic: input.isPublic,
        icon: input.icon ?? null,
        config: input.config,
      })
      .returning();
    if (!row) throw new Error('template insert returned nothing');
    return row;
  });
}

/**
 * Deletes one of the organization's own templates (a public one frees its place under the limit); the built-in ones
 * and other organizations' are 404. Projects made from it keep their quota: they copied it when they were created.
 */
export async function deleteTemplate(
  db: DbExecutor,
  organizationId: string,
  templateId: string,
): Promise<ProjectTemplate> {
  if (!isUuid(templateId)) throw templateNotFound();
  const [row] = await db
    .delete(projectTemplates)
    .where(
      and(
        eq(projectTemplates.id, templateId),
        eq(projectTemplates.organizationId, organizationId),
        eq(projectTemplates.isSystem, false),
      ),
    )
    .returning();
  if (!row) throw templateNotFound();
  return row;
}

/** Counts one use of a template the organization may see, and returns it; 404 when it may not. */
export async function useTemplate(
  db: DbExecutor,
  templateId: string,
  organizationId: string,
): Promise<ProjectTemplate> {
  if (!isUuid(templateId)) throw templateNotFound();
  const [row] = await db
    .update(projectTemplates)
    .set({ usageCount: sql`${projectTemplates.usageCount} + 1` })
    .where(and(eq(projectTemplates.id, templateId), visibleTo(organizationId)))
    .returning();
  if (!row) throw templateNotFound();
  return row;
}

/** Upserts the built-in templates by name; their usage counts survive. Returns how many were new. */
export async function seedSystemTemplates(db: DbExecutor): Promise<number> {
  let created = 0;
  for (const t of systemTemplates) {
    const [row] = await db
      .insert(projectTemplates)
      .values({ ...t, category: t.name, isSystem: true, isPublic: true, organizationId: null })
      .onConflictDoUpdate({
        target: projectTemplates.name,
        targetWhere: sql`${projectTemplates.isSystem}`,
        set: { description: t.description, tags: t.tags, icon: t.icon, config: t.config, category: t.name },
      })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });
    if (row?.inserted) created++;
  }
  return created;
}
