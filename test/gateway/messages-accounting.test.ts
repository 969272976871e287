import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { tokenCostMicros } from '../../shared/gateway/pricing.js';
import { reconcileWallets } from '../../shared/wallet/reconciliation.js';
import {
  aProjectWithKey,
  consumeRecords,
  type GatewayWorld,
  openGatewayWorld,
  requestLogsOf,
  walletOf,
} from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
let server: Server;
let baseURL: string;

beforeAll(async () => {
  w = await openGatewayWorld({ balance: '100' });
  server = w.h.app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await w.close();
});

const sonnet = loadModelRegistry().resolve('claude-sonnet-5', 'messages');
const micros = (usd: number) => BigInt(Math.round(usd * 1_000_000));
const clientFor = (key: string) => new Anthropic({ apiKey: key, baseURL, maxRetries: 0 });

describe('accounting of /v1/messages', () => {
  it('bills 50 concurrent streams exactly once each, and the ledger reconciles', async () => {
    const project = await aProjectWithKey(w.h, '20');
    const client = clientFor(project.key);
    const finals = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        client.messages
          .stream({
            model: 'claude-sonnet-5',
            max_tokens: 200,
            messages: [{ role: 'user', content: `story number ${i}` }],
          })
          .finalMessage(),
      ),
    );
    const expectedTotal = finals.reduce(
      (sum, m) =>
        sum +
        tokenCostMicros(sonnet, {
          inputTokens: m.usage.input_tokens,
          outputTokens: m.usage.output_tokens,
          cacheReadTokens: m.usage.cache_read_input_tokens ?? 0,
          cacheWriteTokens: m.usage.cache_creation_input_tokens ?? 0,
        }),
      0n,
    );
    // A stream is settled right after its last byte is sent, so the last settlements may land a moment later.
    const records = await waitUntil(async () => {
      const found = await consumeRecords(w.h, project.org);
      return found.length >= 50 ? found : undefined;
    });
    expect(records).toHaveLength(50);
    expect(new Set(records.map((r) => r.requestLogId)).size).toBe(50);
    expect(records.reduce((s, r) => s + micros(r.amount), 0n)).toBe(expectedTotal);
    const wallet = await walletOf(w.h, project.org);
    expect(micros(wallet.balance)).toBe(micros(20) - expectedTotal);
    expect(wallet.frozenAmount).toBe(0);
    const logs = await requestLogsOf(w.h, project.projectId);
    expect(logs).toHaveLength(50);
    expect(logs.every((l) => l.status === 'succeeded')).toBe(true);
    const report = await reconcileWallets(w.h.ctx.db);
    expect(report.problems).toEqual([]);
  });

  it('answers 429 rate_limit_error with retry-after once the project quota is used, without charging', async () => {
    const project = await aProjectWithKey(w.h, '5');
    const quota = await w.h.http
      .post(`/api/projects/${project.projectId}/quota`)
      .set(inOrg(project.org.admin, project.org.id))
      .send({ dailyRequestLimit: 2, enforceQuota: true });
    expect(quota.status).toBeLessThan(300);
    const client = clientFor(project.key);
    const ask = () =>
      client.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 20,
        messages: [{ role: 'user', content: 'hi' }],
      });
    await ask();
    await ask();
    const rejected = await ask().then(
      () => {
        throw new Error('expected a 429');
      },
      (e: unknown) => e as { status: number; headers: Headers; error: unknown },
    );
    expect(rejected.status).toBe(429);
    expect(rejected.error).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: expect.any(String) } });
    expect(Number(rejected.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await consumeRecords(w.h, project.org)).toHaveLength(2);
    expect((await walletOf(w.h, project.org)).frozenAmount).toBe(0);
  });

  it('answers 402 in Anthropic shape when the wallet is empty, and counts nothing', async () => {
    const project = await aProjectWithKey(w.h);
    const rejected = await clientFor(project.key)
      .messages.create({ model: 'claude-haiku-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'hi' }] })
      .then(
        () => {
          throw new Error('expected a 402');
        },
        (e: unknown) => e as { status: number; error: { error: { type: string } } },
      );
    expect(rejected.status).toBe(402);
    expect(rejected.error.error.type).toBe('billing_error');
    const usage = await w.h.http
      .get(`/api/projects/${project.projectId}/quota-usage?period=day`)
      .set(inOrg(project.org.admin, project.org.id));
    expect(usage.body.data.dailyUsage.requestCount).toBe(0);
  });

  it('records the tokens of every answer in the project quota usage', async () => {
    const project = await aProjectWithKey(w.h, '5');
    const m = await clientFor(project.key).messages.create({
      model: 'claude-haiku-4-5',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'count me' }],
    });
    const usage = await w.h.http
      .get(`/api/projects/${project.projectId}/quota-usage?period=day`)
      .set(inOrg(project.org.admin, project.org.id));
    expect(usage.body.data.dailyUsage).toMatchObject({
      requestCount: 1,
      tokenCount: m.usage.input_tokens + m.usage.output_tokens,
    });
  });
});
