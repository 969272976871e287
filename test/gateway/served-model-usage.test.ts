// A Messages request that a `fallbacks` model served is billed at that model's prices; its request log and the
// project's usage file it under that model too (they named the model the request asked for, so a team reading its
// usage by model saw costs that matched no listed price). A request no model answered keeps the model it named. The
// usage also counts the prompt cache's reads and writes, per day and per model (migration 0023). The simulated provider
// serves a prompt with `[overloaded]` from the request's first fallback.
import { triggers } from '../../scripts/simulated-provider/triggers.js';
import { type GatewayWorld, openGatewayWorld, requestLogsOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w?.close());

const ask = (body: Record<string, unknown>) =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .send({ model: 'claude-sonnet-5', max_tokens: 32, ...body });

const overloaded = [{ role: 'user', content: `Name a paper boat ${triggers.overloaded}` }];

/** The request logs once `n` of them are written (the ledger worker writes them a moment after they settled). */
const logsOnceWritten = (n: number) =>
  waitUntil(async () => {
    const logs = await requestLogsOf(w.h, w.projectId);
    return logs.length >= n ? logs : undefined;
  });

const usage = async () => {
  const res = await w.h.http.get(`/api/projects/${w.projectId}/usage`).set(inOrg(w.org.admin, w.org.id));
  expect(res.status).toBe(200);
  return res.body.data as {
    days: Record<string, number | string>[];
    models: (Record<string, number> & { operation: string; model: string })[];
  };
};

type Listed = { id: string; prices: { inputPerMTok: number; outputPerMTok: number } };
const listedPrices = async (id: string) => {
  const res = await w.h.http.get(`/api/projects/${w.projectId}/models`).set(inOrg(w.org.admin, w.org.id));
  return (res.body.data as Listed[]).find((m) => m.id === id)?.prices;
};

describe('a request a fallback model served', () => {
  it('is logged and rolled up under the model that served it, at that model’s listed prices', async () => {
    const res = await ask({ messages: overloaded, fallbacks: [{ model: 'claude-haiku-4-5' }] });
    expect(res.status).toBe(200);
    const [log] = await logsOnceWritten(1);
    expect(log).toMatchObject({ operation: 'messages', model: 'claude-haiku-4-5', status: 'succeeded' });

    // Its cost is what the models route lists for the model that served it (Haiku), not the one it named (Sonnet).
    const haiku = await listedPrices('claude-haiku-4-5');
    const sonnet = await listedPrices('claude-sonnet-5');
    // USD per million tokens is micro-USD per token; the sum is rounded up once (docs/gateway.md).
    const at = (p: Listed['prices'] | undefined) =>
      Math.ceil(
        (log?.inputTokens ?? 0) * (p?.inputPerMTok ?? 0) + (log?.outputTokens ?? 0) * (p?.outputPerMTok ?? 0) - 1e-9,
      );
    expect(Number(log?.costMicros)).toBe(at(haiku));
    expect(at(haiku)).toBeLessThan(at(sonnet));

    const { models } = await usage();
    expect(models).toEqual([
      expect.objectContaining({
        operation: 'messages',
        model: 'claude-haiku-4-5',
        requests: 1,
        inputTokens: log?.inputTokens,
        outputTokens: log?.outputTokens,
        spent: at(haiku) / 1_000_000,
      }),
    ]);
  });

  it('streamed, is logged under the model its message_start names', async () => {
    const res = await ask({ messages: overloaded, fallbacks: [{ model: 'claude-haiku-4-5' }], stream: true });
    expect(res.status).toBe(200);
    expect(res.text).toContain('message_stop');
    const logs = await logsOnceWritten(2);
    expect(logs.map((l) => l.model)).toEqual(['claude-haiku-4-5', 'claude-haiku-4-5']);
    expect((await usage()).models).toEqual([
      expect.objectContaining({ operation: 'messages', model: 'claude-haiku-4-5', requests: 2 }),
    ]);
  });

  it('keeps the model it named when no model answered it', async () => {
    const res = await ask({ messages: overloaded });
    expect(res.status).toBe(529);
    const logs = await logsOnceWritten(3);
    expect(logs.find((l) => l.status === 'failed')).toMatchObject({ model: 'claude-sonnet-5', costMicros: 0n });
    expect((await usage()).models).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ operation: 'messages', model: 'claude-sonnet-5', requests: 1, spent: 0 }),
      ]),
    );
  });
});

it("counts the prompt cache's reads and writes per day and per model, as the request logs do", async () => {
  const cached = {
    model: 'claude-haiku-4-5',
    messages: [
      {
        role: 'user',
        content: [{ type: 'text', text: 'A long shared preamble. '.repeat(50), cache_control: { type: 'ephemeral' } }],
      },
    ],
  };
  // One after the other: the first writes the prefix to the cache, the second reads it.
  expect((await ask(cached)).body.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  expect((await ask(cached)).body.usage.cache_read_input_tokens).toBeGreaterThan(0);
  const logs = await logsOnceWritten(5);
  const sum = (field: 'cacheReadTokens' | 'cacheWriteTokens') => logs.reduce((n, l) => n + l[field], 0);
  const haiku = logs.filter((l) => l.model === 'claude-haiku-4-5');
  const haikuSum = (field: 'cacheReadTokens' | 'cacheWriteTokens') => haiku.reduce((n, l) => n + l[field], 0);
  expect(sum('cacheReadTokens')).toBeGreaterThan(0);
  expect(sum('cacheWriteTokens')).toBeGreaterThan(0);

  const { days, models } = await usage();
  expect(days).toEqual([
    expect.objectContaining({
      requests: 5,
      inputTokens: logs.reduce((n, l) => n + l.inputTokens, 0),
      outputTokens: logs.reduce((n, l) => n + l.outputTokens, 0),
      cacheReadTokens: sum('cacheReadTokens'),
      cacheWriteTokens: sum('cacheWriteTokens'),
    }),
  ]);
  expect(models.find((m) => m.model === 'claude-haiku-4-5')).toMatchObject({
    requests: 4,
    cacheReadTokens: haikuSum('cacheReadTokens'),
    cacheWriteTokens: haikuSum('cacheWriteTokens'),
  });
  expect(models.find((m) => m.model === 'claude-sonnet-5')).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
});
