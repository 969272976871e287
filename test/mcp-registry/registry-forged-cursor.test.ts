// The MCP Registry list's cursor names a real instant or is refused: a forged one of the right shape but no such
// date (2024-02-30) reached PostgreSQL's timestamptz cast and answered anyone, without an account, a 500 instead of
// 400 McpRegistry.InvalidCursor (found by a security review).
import { createHarness, type Harness } from '../support/harness.js';

const cursorOf = (at: string) =>
  Buffer.from(JSON.stringify([at, '00000000-0000-4000-8000-000000000000'])).toString('base64url');

describe('GET /v0.1/servers with a forged cursor or date', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h?.close());

  it.each(['2024-02-30T00:00:00.000000Z', '2024-13-01T00:00:00.000000Z', '2024-01-01T25:61:61.000000Z'])(
    'answers 400 for cursor time %s',
    async (at) => {
      const res = await h.http.get(`/v0.1/servers?cursor=${cursorOf(at)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: expect.stringContaining('Invalid cursor') });
    },
  );

  it.each(['2024-02-30T00:00:00Z', '2024-02-31T12:00:00+02:00'])(
    'answers 400 (or 200) for updated_since %s, never 500',
    async (at) => {
      const res = await h.http.get(`/v0.1/servers?updated_since=${encodeURIComponent(at)}`);
      expect([200, 400]).toContain(res.status);
    },
  );
});
