// A project key used only on the gateway showed no last use on the API keys page: a gateway call authenticates from
// an in-process copy of the key, so nothing recorded it. The ledger writer now moves the key's last use up to its
// newest written request, never down.
import { eq } from 'drizzle-orm';
import { apiKeys } from '../../shared/db/schema/index.js';
import { type GatewayWorld, openGatewayWorld, writeLedgers } from '../support/gateway.js';
import { bearer } from '../support/identity.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(() => w?.close());

const listedKey = async () => {
  const res = await w.h.http.get('/api/v1/api-keys').set(bearer(w.org.admin.session));
  return (res.body as { id: string; name: string; lastUsedAt?: string }[]).find((k) => k.name === 'gateway key');
};
const paidCall = () =>
  w.h.http
    .post('/v1/messages')
    .set('x-api-key', w.key)
    .send({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hello' }] });

it("shows a gateway call as the key's last use once the ledger has it, and never moves it back", async () => {
  expect((await listedKey())?.lastUsedAt).toBeUndefined();

  const before = Date.now();
  expect((await paidCall()).status).toBe(200);
  await writeLedgers(w.h);
  const lastUsed = Date.parse((await listedKey())?.lastUsedAt ?? '');
  expect(lastUsed).toBeGreaterThanOrEqual(before);
  expect(lastUsed).toBeLessThanOrEqual(Date.now());

  // A newer use recorded elsewhere (the daily rollover of /api/v1 use) stays when an older gateway batch lands.
  const later = new Date(Date.now() + 3_600_000);
  const id = (await listedKey())?.id ?? '';
  await w.h.ctx.db.update(apiKeys).set({ lastUsedAt: later }).where(eq(apiKeys.id, id));
  expect((await paidCall()).status).toBe(200);
  await writeLedgers(w.h);
  expect(Date.parse((await listedKey())?.lastUsedAt ?? '')).toBe(later.getTime());
});
