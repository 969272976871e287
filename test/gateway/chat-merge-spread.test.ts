// Consecutive turns of one role are merged block by block: a spread of a few hundred thousand content parts (a ~10 MB
// body, under the gateway's 32 MB limit) overflowed the call stack and answered 500 (found by a security review).
import { aProjectWithKey } from '../support/gateway.js';
import { createHarness, type Harness } from '../support/harness.js';

describe('chat completions: many parts in a merged user turn', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ UPSTREAM_MESSAGES_URL: 'http://127.0.0.1:9/' });
  });
  afterAll(async () => h?.close());

  it('never answers 500 for a long list of parts', async () => {
    const { key } = await aProjectWithKey(h, '1');
    const parts = Array.from({ length: 300_000 }, () => ({ type: 'text', text: 'a' }));
    const res = await h.http
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${key}`)
      .send({
        model: 'claude-haiku-4-5',
        max_tokens: 1,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'user', content: parts },
        ],
      });
    // Translated and reserved; the test upstream is unreachable, so the answer is its 529.
    expect(res.status).toBe(529);
  });
});
