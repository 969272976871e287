// The organizations part of the idempotent seed: the built-in templates, and a default organization with the
// seeded Admin account as its organization Admin (only while that account belongs to no organization).
import type { AppContext } from '../context.js';
import { findAccountByEmail } from '../identity/accounts.js';
import { createOrganization, listOrganizationsOf } from './organizations.js';
import { seedSystemTemplates } from './project-templates.js';

export const defaultOrganizationName = 'Default organization';

export async function seedOrganizations(ctx: AppContext): Promise<string> {
  const newTemplates = await seedSystemTemplates(ctx.db);
  const notes = [`${newTemplates} new built-in templates`];
  const admin = await findAccountByEmail(ctx, ctx.config.ADMIN_EMAIL);
  if (!admin) {
    notes.push('no Admin account yet, so no default organization');
  } else if ((await listOrganizationsOf(ctx.db, admin.id)).length > 0) {
    notes.push('the Admin already belongs to an organization');
  } else {
    const organization = await createOrganization(ctx, admin.id, { name: defaultOrganizationName });
    notes.push(`created "${organization.name}" (${organization.id}) with ${admin.email} as its Admin`);
  }
  return notes.join('; ');
}
