// A gateway world for tests: the simulated provider in process, an organization with a project, a project-bound
// API key, and (optionally) money in the organization's wallet.
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';
import { anOrganization, aProject, inOrg, type TestOrg } from '../organizations/org-fixtures.js';
import { createHarness, type Harness, type TestEnv } from './harness.js';
import { bearer } from './identity.js';

export const SIMULATOR_KEY = 'simulator-test-key';

export type GatewayWorld = {
  h: Harness;
  sim: SimulatedProvider;
  org: TestOrg;
  projectId: string;
  /** An `ock_` key bound to the project. */
  key: string;
  close(): Promise<void>;
};

export async function openGatewayWorld(
  options: { balance?: string; env?: TestEnv; simulator?: Parameters<typeof startSimulatedProvider>[0] } = {},
): Promise<GatewayWorld> {
  const sim = await startSimulatedProvider({ apiKey: SIMULATOR_KEY, chunkDelayMs: 2, ...options.simulator });
  const h = await createHarness({
    UPSTREAM_MESSAGES_URL: sim.url,
    UPSTREAM_MESSAGES_KEY: SIMULATOR_KEY,
    UPSTREAM_VIDEO_URL: sim.url,
    UPSTREAM_VIDEO_KEY: SIMULATOR_KEY,
    UPSTREAM_SEARCH_URL: sim.url,
    UPSTREAM_SEARCH_KEY: SIMULATOR_KEY,
    ...options.env,
  });
  const world = await aProjectWithKey(h, options.balance);
  return {
    h,
    sim,
    ...world,
    async close() {
      await h.close();
      await sim.close();
    },
  };
}

export async function aProjectWithKey(h: Harness, balance?: string) {
  const org = await anOrganization(h);
  const project = await aProject(h, org);
  const created = await h.http
    .post('/api/v1/api-keys')
    .set(bearer(org.admin.session))
    .send({ name: 'gateway key', projectId: project.id });
  if (created.status !== 200) throw new Error(`project key not created: ${created.status} ${created.text}`);
  if (balance) await recharge(h, org, balance);
  return { org, projectId: project.id as string, key: created.body.token as string };
}

export async function recharge(h: Harness, org: TestOrg, amount: string) {
  const res = await h.http
    .post('/api/organization/wallet/recharge')
    .set(inOrg(org.admin, org.id))
    .send({ amount: Number(amount), description: 'test money' });
  if (res.status >= 300) throw new Error(`recharge failed: ${res.status} ${res.text}`);
}

export async function walletOf(h: Harness, org: TestOrg) {
  const res = await h.http.get('/api/organization/wallet').set(inOrg(org.admin, org.id));
  return res.body.data as { balance: number; frozenAmount: number; currency: string };
}

export async function consumeRecords(h: Harness, org: TestOrg) {
  const res = await h.http.get('/api/organization/wallet/records?type=Consume&size=100').set(inOrg(org.admin, org.id));
  return res.body.data as { amount: number; requestLogId: string; currentBalance: number }[];
}
