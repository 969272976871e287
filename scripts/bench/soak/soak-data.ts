// What the soak's clients need in the database: five approved agents, a funded project with ten API keys, and
// twenty accounts to sign in as; and the loopback site web fetches read (100 distinct pages, so the page cache both
// hits and fills within warm-up).
import http from 'node:http';
import { createPublisher } from '../../../shared/catalog/publishers.js';
import type { AppContext } from '../../../shared/context.js';
import { createAccount } from '../../../shared/identity/accounts.js';
import { bootstrapAdmin } from '../../../shared/identity/admin-bootstrap.js';
import { createApiKey } from '../../../shared/identity/api-keys.js';
import { createOrganization } from '../../../shared/organizations/organizations.js';
import { createProject } from '../../../shared/organizations/projects.js';
import { recharge } from '../../../shared/wallet/ledger.js';
import { publishBenchAgent } from '../bench-catalog.js';

export const SOAK_PASSWORD = 'a-soak-password-1';

export type SoakData = { slugs: string[]; tokens: string[]; loginEmails: string[] };

export async function seedSoakData(ctx: AppContext): Promise<SoakData> {
  const { account: admin } = await bootstrapAdmin(ctx);
  const publisher = await createPublisher(ctx.db, admin.id, { slug: 'soak', name: 'Soak' });
  const slugs: string[] = [];
  for (let i = 0; i < 5; i++) {
    const slug = `soak-agent-${i}`;
    await publishBenchAgent(ctx, admin.id, publisher.slug, { slug, name: `Soak agent ${i}` });
    slugs.push(slug);
  }
  const owner = await createAccount(ctx, { email: 'owner@soak.local', name: 'Owner', password: SOAK_PASSWORD });
  const org = await createOrganization(ctx, owner.id, { name: 'Soak org' });
  const project = await createProject(ctx, org.id, owner.id, { name: 'Soak project' });
  await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'soak' });
  const tokens = await Promise.all(
    Array.from(
      { length: 10 },
      async (_, i) => (await createApiKey(ctx, owner.id, { name: `soak ${i}`, projectId: project.id })).token,
    ),
  );
  const hash = await ctx.passwords.hash(SOAK_PASSWORD);
  const loginEmails = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const a = await createAccount(ctx, { email: `user-${i}@soak.local`, name: `User ${i}`, passwordHash: hash });
      return a.email;
    }),
  );
  return { slugs, tokens, loginEmails };
}

export async function startSoakSite(): Promise<{ origin: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    const n = Number((req.url ?? '').split('/').pop());
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><head><title>Page ${n}</title></head><body><article><h1>Page ${n}</h1>` +
        `${'<p>The keeper wrote down the ships, the weather and the state of the lamp.</p>'.repeat(40)}</article></body></html>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}
