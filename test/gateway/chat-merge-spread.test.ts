// Consecutive turns of one role are merged block by block: a spread of a few hundred thousand content parts (a ~10 MB
// body, under the gateway's 32 MB limit) overflowed the call stack and answered 500 (found by a security review).
// Since security review #89 a body holds at most 100,000 objects and arrays, and since #126 at most 100,000 object
// keys: a text part has two, so the most parts a turn can carry is just under 50,000, and 300,000 are refused before
// the translation.
import { aProjectWithKey } from '../support/gateway.js';
import { createHarness, type Harness } from '../support/harness.js';

describe('chat completions: many parts in a merged user turn', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ UPSTREAM_MESSAGES_URL: 'http://127.0.0.1:9/' });
  });
  afterAll(async () => h?.close());

  const send = (key: string, count: number) =>
    h.http
      .post('/v1/chat/completions')
      .set('authorization', `Bearer ${key}`)
      .send({
        model: 'claude-haiku-4-5',
        max_tokens: 1,
        messages: [
          { role: 'user', content: 'x' },
          { role: 'user', content: Array.from({ length: count }, () => ({ type: 'text', text: 'a' })) },
        ],
      });

  it('never answers 500 for the longest list of parts a body may hold', async () => {
    const { key } = await aProjectWithKey(h, '1');
    // The body's own keys (model, max_tokens, messages, and role and content twice: 7) and two per part: 99,999.
    const res = await send(key, 49_996);
    // Translated and reserved; the test upstream is unreachable, so the answer is its 529.
    expect(res.status).toBe(529);
  });

  it('refuses 300,000 parts before translating them', async () => {
    const { key } = await aProjectWithKey(h, '2');
    const res = await send(key, 300_000);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('Request.TooManyValues');
  });
});
