// What every property run starts from: the real services over this run's PostgreSQL database and Redis prefix, with
// a connection pool wide enough for the concurrent batches, and a fresh organization (wallet) or project per run.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { AppContext } from '../../../shared/context.js';
import * as schema from '../../../shared/db/schema/index.js';
import { createOrganization } from '../../../shared/organizations/organizations.js';
import { type QuotaInput, setProjectQuota } from '../../../shared/organizations/project-quotas.js';
import { createProject } from '../../../shared/organizations/projects.js';
import { recharge } from '../../../shared/wallet/ledger.js';
import { createHarness, type Harness } from '../../support/harness.js';
import { createUser, type TestUser } from '../../support/identity.js';

export type PropertyWorld = {
  h: Harness;
  /** The harness context over a 20-connection pool whose callers may wait for a connection as long as they need. */
  ctx: AppContext;
  owner: TestUser;
  /** A platform Admin, the author of refunds. */
  admin: TestUser;
  close(): Promise<void>;
};

export async function openPropertyWorld(): Promise<PropertyWorld> {
  const h = await createHarness();
  const pool = new pg.Pool({ connectionString: h.config.DATABASE_URL, max: 20, connectionTimeoutMillis: 60_000 });
  pool.on('error', () => {});
  const ctx: AppContext = { ...h.ctx, pool, db: drizzle(pool, { schema }) };
  const [owner, admin] = await Promise.all([
    createUser(h, { name: 'Property Owner' }),
    createUser(h, { name: 'Property Admin', roles: ['Admin'] }),
  ]);
  return {
    h,
    ctx,
    owner,
    admin,
    async close() {
      await pool.end();
      await h.close();
    },
  };
}

/** A new organization whose wallet holds `balance` micro-units (one Recharge record when above zero). */
export async function freshWallet(world: PropertyWorld, balance: bigint): Promise<string> {
  const organization = await createOrganization(world.ctx, world.owner.accountId, { name: 'Property Org' });
  if (balance > 0n) await recharge(world.ctx, organization.id, { amount: balance, description: 'starting balance' });
  return organization.id;
}

/** A new project (in a new organization holding `balance`) with the given quota, cached as the gateway reads it. */
export async function freshProject(
  world: PropertyWorld,
  options: { balance?: bigint; quota?: QuotaInput } = {},
): Promise<{ organizationId: string; projectId: string }> {
  const organizationId = await freshWallet(world, options.balance ?? 0n);
  const project = await createProject(world.ctx, organizationId, world.owner.accountId, { name: 'Property Project' });
  if (options.quota) await setProjectQuota(world.ctx, project.id, options.quota);
  return { organizationId, projectId: project.id };
}
