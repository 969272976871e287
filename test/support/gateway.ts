// A gateway world for tests: the simulated provider in process, an organization with a project, a project-bound
// API key, and (optionally) money in the organization's wallet.

import type { ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';
import { requestLogs } from '../../shared/db/schema/index.js';
import { drainLedgers } from '../../shared/wallet/ledger-writer.js';
import { createHarness, type Harness, type TestEnv } from './harness.js';
import { bearer, platformAdminOf } from './identity.js';
import { anOrganization, aProject, inOrg, type TestOrg } from './org-fixtures.js';

export const SIMULATOR_KEY = 'simulator-test-key';

export type GatewayWorld = {
  h: Harness;
  sim: SimulatedProvider;
  org: TestOrg;
  projectId: string;
  /** An `ock_` key bound to the project. */
  key: string;
  /** Its id. */
  keyId: string;
  close(): Promise<void>;
};

/** Every upstream of the gateway pointed at the simulated provider. */
export const simulatorUpstreams = (url: string): TestEnv => ({
  UPSTREAM_MESSAGES_URL: url,
  UPSTREAM_MESSAGES_KEY: SIMULATOR_KEY,
  UPSTREAM_VIDEO_URL: url,
  UPSTREAM_VIDEO_KEY: SIMULATOR_KEY,
  UPSTREAM_SEARCH_URL: url,
  UPSTREAM_SEARCH_KEY: SIMULATOR_KEY,
});

export async function openGatewayWorld(
  options: { balance?: string; env?: TestEnv; simulator?: Parameters<typeof startSimulatedProvider>[0] } = {},
): Promise<GatewayWorld> {
  const sim = await startSimulatedProvider({ apiKey: SIMULATOR_KEY, chunkDelayMs: 2, ...options.simulator });
  const h = await createHarness({ ...simulatorUpstreams(sim.url), ...options.env });
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
  return { org, projectId: project.id as string, key: created.body.token as string, keyId: created.body.id as string };
}

/** A small paid `/v1/messages` call with `token` (an `ock_` key). */
export const helloMessage = (h: Harness, token: string) =>
  h.http
    .post('/v1/messages')
    .set('x-api-key', token)
    .send({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });

/** Money into the organization's wallet, recharged by the platform Admin (organization Admins may not). */
export async function recharge(h: Harness, org: TestOrg, amount: string | number) {
  const res = await h.http
    .post('/api/organization/wallet/recharge')
    .set(inOrg(await platformAdminOf(h), org.id))
    .send({ amount: Number(amount), description: 'test money' });
  if (res.status >= 300) throw new Error(`recharge failed: ${res.status} ${res.text}`);
}

export async function walletOf(h: Harness, org: TestOrg) {
  const res = await h.http.get('/api/organization/wallet').set(inOrg(org.admin, org.id));
  return res.body.data as { balance: number; frozenAmount: number; currency: string };
}

/** Writes every settled request waiting in Redis to PostgreSQL now (the `ledger` worker's job, done in-process). */
export const writeLedgers = (h: Harness) => drainLedgers(h.ctx);

/** The request logs of a project, once the settled requests are written to PostgreSQL. */
export async function requestLogsOf(h: Harness, projectId: string) {
  await writeLedgers(h);
  return h.ctx.db.select().from(requestLogs).where(eq(requestLogs.projectId, projectId));
}

/** The Consume records, once the settled requests are written to PostgreSQL. */
export async function consumeRecords(h: Harness, org: TestOrg) {
  await writeLedgers(h);
  const res = await h.http.get('/api/organization/wallet/records?type=Consume&size=100').set(inOrg(org.admin, org.id));
  return res.body.data as { amount: number; requestLogId: string; currentBalance: number }[];
}

/** A loopback upstream's answer: one short Messages reply from `model` that reports `usage`. */
export function answerUsage(res: ServerResponse, model: string, usage: Record<string, unknown>): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model,
      content: [{ type: 'text', text: 'done' }],
      stop_reason: 'end_turn',
      usage,
    }),
  );
}

/** A loopback upstream's answer: one short Messages reply that reports `inputTokens` read. */
export function answerMessage(res: ServerResponse, inputTokens: number): void {
  answerUsage(res, 'claude-haiku-4-5', { input_tokens: inputTokens, output_tokens: 1 });
}
