// The idempotent seed's steps: the Admin account and whatever each area needs to be alive after `npm start`
// (which runs them, as `npm run seed` does through scripts/seed.ts).
import type { AppContext } from '../../shared/context.js';
import { bootstrapAdmin } from '../../shared/identity/admin-bootstrap.js';
import { seedOrganizations } from '../../shared/organizations/organization-seed.js';
import { ensureWallets } from '../../shared/wallet/wallets.js';
import { catalogCategoriesStep, demoCatalogStep } from './catalog-seed.js';

export type SeedStep = { name: string; run(ctx: AppContext): Promise<string | undefined> };

/** Each area adds its step here; every step must be safe to run on every start. */
export const seedSteps: SeedStep[] = [
  {
    name: 'admin',
    async run(ctx) {
      const { account, created, passwordReplaced } = await bootstrapAdmin(ctx);
      const replaced = passwordReplaced ? ' and replaced its development password with ADMIN_PASSWORD' : '';
      return `${created ? 'created' : 'found'} Admin account ${account.email}${replaced}`;
    },
  },
  catalogCategoriesStep,
  demoCatalogStep,
  { name: 'organizations', run: seedOrganizations },
  {
    name: 'wallets',
    async run(ctx) {
      const created = await ensureWallets(ctx.db);
      return created > 0 ? `created ${created} missing organization wallets` : undefined;
    },
  },
];

export async function runSeed(ctx: AppContext): Promise<string[]> {
  const notes: string[] = [];
  for (const step of seedSteps) {
    const note = await step.run(ctx);
    if (note) notes.push(`${step.name}: ${note}`);
  }
  return notes;
}
