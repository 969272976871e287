// Whose a project template is, as the project form and the templates page say it: another organization's public
// template may take a built-in's name and category ("Starter"), so a name alone does not tell them apart.
import type { Template } from './templates-api.js';

export type TemplateOwner = 'builtIn' | 'own' | 'public';

/** The project form's groups, in the API's order: what the organization relies on first, whatever others publish. */
export const templateOwnerGroups: { owner: TemplateOwner; label: string }[] = [
  { owner: 'builtIn', label: 'Built-in' },
  { owner: 'own', label: 'This organization' },
  { owner: 'public', label: 'Public, from other organizations' },
];

export function templateOwner(t: Template, organizationId: string): TemplateOwner {
  if (t.isSystem) return 'builtIn';
  return t.organizationId === organizationId ? 'own' : 'public';
}

/**
 * Who published another organization's template: its name when the viewer belongs to that organization too (the
 * console knows those names), else "another organization". The API names no other organization: its maker chose the
 * name, which could read "Built-in", and it would tell every account about organizations it has nothing to do with.
 */
export function publisher(
  t: Template,
  organizationId: string,
  organizations: { id: string; name: string }[],
): string | undefined {
  if (templateOwner(t, organizationId) !== 'public') return undefined;
  return organizations.find((o) => o.id === t.organizationId)?.name ?? 'another organization';
}

/** "Built-in", "This organization", "Public, from <organization>" or "Public, from another organization". */
export function templateOwnerLabel(
  t: Template,
  organizationId: string,
  organizations: { id: string; name: string }[],
): string {
  const from = publisher(t, organizationId, organizations);
  if (from) return `Public, from ${from}`;
  const owner = templateOwner(t, organizationId);
  return templateOwnerGroups.find((g) => g.owner === owner)?.label ?? '';
}
