// The MCP Registry benches' catalog: `count` published MCP items of one publisher, each with two published versions
// (1.0.0 then 1.1.0, the second current), every old version published before every new one.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../shared/context.js';
import { catalogItems, catalogVersions, publishers } from '../../shared/db/schema/index.js';
import { createAccount } from '../../shared/identity/accounts.js';

export async function seedRegistryCatalog(ctx: AppContext, count: number) {
  const owner = await createAccount(ctx, { email: 'bench@bench.local', name: 'Bench', passwordHash: 'x' });
  const [publisher] = await ctx.db
    .insert(publishers)
    .values({ slug: 'bench', name: 'Bench', ownerAccountId: owner.id })
    .returning();
  const now = Date.now();
  for (let start = 0; start < count; start += 1_000) {
    const ns = Array.from({ length: 1_000 }, (_, k) => start + k);
    const items = await ctx.db
      .insert(catalogItems)
      .values(
        ns.map((n) => ({
          type: 'mcp' as const,
          slug: `server-${n}`,
          publisherId: publisher!.id,
          name: `Server ${n}`,
          summary: `Connects assistants to thing number ${n}.`,
          description: 'A benchmark server.',
          status: 'published' as const,
          publishedAt: new Date(now - n * 1_000),
        })),
      )
      .returning({ id: catalogItems.id });
    for (const [version, age] of [
      ['1.0.0', 2_000],
      ['1.1.0', 1_000],
    ] as const) {
      await ctx.db.insert(catalogVersions).values(
        items.map((item, k) => ({
          itemId: item.id,
          version,
          status: 'published' as const,
          license: 'MIT',
          payload: {
            connections: [
              { transport: 'stdio', command: 'npx', args: ['-y', `@bench/server-${start + k}@${version}`] },
            ],
            configFields: [{ name: 'TOKEN', type: 'secret', required: true }],
          },
          publishedAt: new Date(now - (start + k) * age),
        })),
      );
    }
  }
  await ctx.db.execute(sql`
    update catalog_items i set current_version_id = v.id from catalog_versions v
    where v.item_id = i.id and v.version = '1.1.0'`);
  await ctx.db.execute(sql`vacuum analyze catalog_items`);
  await ctx.db.execute(sql`analyze catalog_versions`);
}
