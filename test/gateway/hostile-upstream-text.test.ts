// Text an upstream sends back lands in the ledger: a refusal's message (or a stream's error event) becomes the request
// log's error message. JSON lets it carry an unpaired surrogate (`\ud83d`, what a message cut in the middle of an
// emoji holds) or a NUL, which PostgreSQL cannot store: the ledger writer's batch failed on it, and since every batch
// starts from the oldest entry, no request log or Consume record of the organization was written again (found by the
// security review's seventh round, like #22 for usage figures). Now such text is stored with U+FFFD in its place.
import { eq } from 'drizzle-orm';
import { requestLogs } from '../../shared/db/schema/index.js';
import { MAX_LOGGED_ERROR_CHARS } from '../../shared/wallet/ledger-entry.js';
import { reconcileMirrors, reconcileWallets } from '../../shared/wallet/reconciliation.js';
import { type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { type LoopbackServer, startLoopbackServer } from '../support/loopback-server.js';
import { inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
let upstream: LoopbackServer;

/** What the upstream says to each marker, as raw JSON text. */
const refusals: Record<string, string> = {
  '[surrogate]': '"the prompt \\u00ab\\ud83d\\u00bb is refused"',
  '[nul]': '"the prompt \\u0000 is refused"',
  // A refusal as long as the gateway reads of one (64 KiB), echoing the prompt.
  '[long]': `"${'L'.repeat(60_000)}"`,
};
const huge = 'E'.repeat(4 * 1024 * 1024);

beforeAll(async () => {
  upstream = await startLoopbackServer((_req, res, body) => {
    if (body.includes('[stream-huge]')) {
      // A stream whose error event's message is 4 MiB: nothing but the stream itself bounded it.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","model":"claude-sonnet-5",' +
          '"usage":{"input_tokens":5,"output_tokens":0}}}\n\n',
      );
      res.end(`event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"${huge}"}}\n\n`);
      return;
    }
    const marker = Object.keys(refusals).find((m) => body.includes(m));
    if (marker) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(`{"type":"error","error":{"type":"invalid_request_error","message":${refusals[marker]}}}`);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      '{"id":"msg_x","type":"message","role":"assistant","model":"claude-sonnet-5","content":[{"type":"text",' +
        '"text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":5}}',
    );
  });
  w = await openGatewayWorld({ balance: '100', env: { UPSTREAM_MESSAGES_URL: upstream.origin } });
});
afterAll(async () => {
  await w?.close();
  await upstream?.close();
});

const ask = (marker: string, stream = false) =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .send({ model: 'claude-sonnet-5', max_tokens: 16, stream, messages: [{ role: 'user', content: `${marker} hi` }] });

it('writes the ledger on past an upstream message PostgreSQL cannot store as it came', async () => {
  const refused = await Promise.all([ask('[surrogate]'), ask('[nul]')]);
  for (const res of refused) expect(res.status).toBe(400);
  const paid = await ask('[plain]');
  expect(paid.status).toBe(200);

  await writeLedgers(w.h);
  const logs = await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.projectId, w.projectId));
  expect(logs).toHaveLength(3);
  const messages = logs.map((l) => l.errorMessage).filter((m): m is string => m !== null);
  expect(messages.sort()).toEqual(['the prompt \u00ab\ufffd\u00bb is refused', 'the prompt \ufffd is refused']);
  expect(logs.find((l) => l.correlationId === paid.headers['request-id'])?.costMicros).toBeGreaterThan(0n);
  expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
  expect((await reconcileMirrors(w.h.ctx)).problems).toEqual([]);
});

it("keeps at most MAX_LOGGED_ERROR_CHARS of an upstream's error message in the ledger and the request log", async () => {
  const refused = await ask('[long]');
  expect(refused.status).toBe(400);
  const streamed = await ask('[stream-huge]', true);
  expect(streamed.status).toBe(200);
  await writeLedgers(w.h);
  const logs = await w.h.ctx.db.select().from(requestLogs).where(eq(requestLogs.projectId, w.projectId));
  const cut = logs.filter((l) => /^(L+|E+)…$/.test(l.errorMessage ?? ''));
  expect(cut.map((l) => l.errorMessage?.length)).toEqual([MAX_LOGGED_ERROR_CHARS, MAX_LOGGED_ERROR_CHARS]);
  const page = await w.h.http.get(`/api/projects/${w.projectId}/requests?size=100`).set(inOrg(w.org.admin, w.org.id));
  expect(page.status).toBe(200);
  expect(page.text.length).toBeLessThan(20_000);
  expect((await reconcileWallets(w.h.ctx.db)).problems).toEqual([]);
});
