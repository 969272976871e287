// Project templates: the built-in system ones and an organization's custom ones, with their visibility rules.

import { and, count, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { DbExecutor } from '../db/client.js';
import { projectTemplates, type TemplateCategory, type TemplateConfig } from '../db/schema/index.js';
import { notFound } from '../errors/app-error.js';
import { isUuid } from '../validation/uuid.js';
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

export async function listTemplates(
  db: DbExecutor,
  organizationId: string | undefined,
  filter: { isPublic?: boolean | undefined },
): Promise<{ templates: ProjectTemplate[]; total: number }> {
  const conditions = [visibleTo(organizationId)];
  if (filter.isPublic !== undefined) conditions.push(eq(projectTemplates.isPublic, filter.isPublic));
  const where = and(...conditions);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(projectTemplates)
      .where(where)
      .orderBy(desc(projectTemplates.isSystem), projectTemplates.createdAt, projectTemplates.id)
      .limit(500),
    db.select({ n: count() }).from(projectTemplates).where(where),
  ]);
  return { templates: rows, total: total?.n ?? 0 };
}

export async function createTemplate(
  db: DbExecutor,
  organizationId: string,
  createdBy: string,
  input: TemplateInput,
): Promise<ProjectTemplate> {
  const [row] = await db
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
