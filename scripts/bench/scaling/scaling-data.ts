// What the scaling benchmark needs: one approved agent (telemetry), a funded project with one API key (gateway,
// web fetch), the caller and model of the video tasks it creates, and the loopback site web fetches read.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublisher } from '../../../shared/catalog/publishers.js';
import type { AppContext } from '../../../shared/context.js';
import { loadModelRegistry } from '../../../shared/gateway/model-registry.js';
import { bootstrapAdmin } from '../../../shared/identity/admin-bootstrap.js';
import { createApiKey } from '../../../shared/identity/api-keys.js';
import { createOrganization } from '../../../shared/organizations/organizations.js';
import { createProject } from '../../../shared/organizations/projects.js';
import { recharge } from '../../../shared/wallet/ledger.js';
import { publishBenchAgent } from '../bench-catalog.js';

export async function seedScalingData(ctx: AppContext) {
  const { account } = await bootstrapAdmin(ctx);
  const publisher = await createPublisher(ctx.db, account.id, { slug: 'bench', name: 'Bench' });
  const agentId = await publishBenchAgent(ctx, account.id, publisher.slug, {
    slug: 'bench-agent',
    name: 'Bench agent',
  });
  const org = await createOrganization(ctx, account.id, { name: 'Bench org' });
  const project = await createProject(ctx, org.id, account.id, { name: 'Bench project' });
  await recharge(ctx, org.id, { amount: 1_000_000_000_000n, description: 'bench' });
  const { token } = await createApiKey(ctx, account.id, { name: 'bench', projectId: project.id });
  return {
    agentId,
    token,
    caller: { accountId: account.id, projectId: project.id, organizationId: org.id },
    videoModel: loadModelRegistry(ctx.config.MODEL_REGISTRY).resolve('seedance-1-0-pro', 'video'),
  };
}

export type ScalingData = Awaited<ReturnType<typeof seedScalingData>>;

export async function startScalingSite(): Promise<{ origin: string; server: http.Server }> {
  const server = http.createServer((req, res) => {
    const n = Number((req.url ?? '').split('/').pop());
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const p = `<p>Page ${n}: ${'the keeper wrote down the ships, the weather and the state of the lamp. '.repeat(4)}</p>`;
    res.end(
      `<!doctype html><html><head><title>Page ${n}</title></head><body><article>${p.repeat(60)}</article></body>`,
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
