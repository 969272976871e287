// An upstream that reports absurd usage figures (a bug, a uint32 wrap-around, a hostile loopback server) must not
// freeze an organization's ledger or break the wallet mirror: found by a review. A figure past the request log's
// integer column made every ledger batch of the organization fail for good (its later requests never reached
// PostgreSQL), and a token total past Redis' 64-bit integers failed the settlement step half-way: the charge stayed
// in the mirror's pending amount with no ledger entry to clear it, and no request log.
import { eq } from 'drizzle-orm';
import { requestLogs } from '../../shared/db/schema/index.js';
import { reconcileMirrors, reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';

let w: GatewayWorld;
let upstream: LoopbackServer;

/** The figures each prompt makes the upstream report, written as raw JSON numbers. */
const reported: Record<string, string> = {
  '[int4]': '{"input_tokens":3000000000,"output_tokens":5}',
  '[int64]': '{"input_tokens":10000000000000000000,"output_tokens":5}',
  '[plain]': '{"input_tokens":20,"output_tokens":5}',
};

beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res, body) => {
    const marker = Object.keys(reported).find((m) => body.includes(m)) ?? '[plain]';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      `{"id":"msg_x","type":"message","role":"assistant","model":"claude-sonnet-5","content":[{"type":"text",` +
        `"text":"ok"}],"stop_reason":"end_turn","usage":${reported[marker]}}`,
    );
  });
  w = await openGatewayWorld({ balance: '100000', env: { UPSTREAM_MESSAGES_URL: upstream.origin } });
});
afterAll(async () => {
  await w?.close();
  await upstream?.close();
});

async function ask(key: string, marker: string) {
  const res = await w.h.http
    .post('/v1/messages')
    .set('x-api-key', key)
    .send({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: `${marker} hi` }] });
  expect(res.status).toBe(200);
  return res.headers['request-id'] as string;
}

const logsByCorrelation = async (correlationId: string) =>
  w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.correlationId, correlationId));

describe('usage figures an upstream should never report', () => {
  it('a figure past the request log column still writes the ledger, and later requests with it', async () => {
    const huge = await ask(w.key, '[int4]');
    const plain = await ask(w.key, '[plain]');
    await writeLedgers(w.h);
    const [hugeLog] = await logsByCorrelation(huge);
    expect(hugeLog?.inputTokens).toBe(2_147_483_647);
    expect(await logsByCorrelation(plain)).toHaveLength(1);
    expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
  });

  it('a token total past 64-bit integers settles whole: a request log, and the mirror reconciles', async () => {
    // Another organization, so the first test's ledger (stuck before the fix) cannot hide this one's defect.
    const other = await aProjectWithKey(w.h, '100000');
    const huge = await ask(other.key, '[int64]');
    await writeLedgers(w.h);
    expect(await logsByCorrelation(huge)).toHaveLength(1);
    const mirrors = await reconcileMirrors(w.h.ctx);
    expect(mirrors.problems).toEqual([]);
    expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
  });
});
