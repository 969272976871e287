// A field a request leaves out is answered "Required" (with what was expected), in its route family's shape, not
// zod's "Invalid input: expected string, received undefined"; a field sent with the wrong value keeps zod's words.
// A value of the wrong size says what size it must have ("Must not be empty"), not zod's "Too small: expected string
// to have >=1 characters".
import { z } from 'zod';
import { validationError } from '../../shared/errors/validation.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, createUser } from '../support/identity.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('the message of a missing field', () => {
  const schema = z.object({ name: z.string(), kind: z.enum(['a', 'b']), size: z.number().optional() });

  it('says Required and what was expected; a wrong value keeps its own message', () => {
    expect(validationError(schema.safeParse({}).error as z.ZodError, 'X.Invalid').details).toEqual({
      errors: [
        { path: 'name', message: 'Required: expected string.' },
        { path: 'kind', message: 'Required: one of "a", "b".' },
      ],
    });
    const wrong = validationError(schema.safeParse({ name: 1, kind: 'c' }).error as z.ZodError, 'X.Invalid');
    expect(wrong.message).toBe('name: Invalid input: expected string, received number');
  });

  it('says what size a value must have: empty, too short or long, too few or many items, out of range', () => {
    const sized = z.object({
      name: z.string().trim().min(1).max(5),
      code: z.string().length(4),
      tags: z.array(z.string()).min(1).max(2),
      count: z.number().int().min(1).max(10),
      ratio: z.number().positive(),
      note: z.string().max(3, 'note: say it in three letters'),
    });
    const messages = (input: unknown) =>
      (validationError(sized.safeParse(input).error as z.ZodError, 'X.Invalid').details as { errors: unknown[] })
        .errors;
    expect(messages({ name: '   ', code: 'abc', tags: [], count: 0, ratio: 0, note: 'abcd' })).toEqual([
      { path: 'name', message: 'Must not be empty.' },
      { path: 'code', message: 'Must have exactly 4 characters.' },
      { path: 'tags', message: 'Must have at least 1 item.' },
      { path: 'count', message: 'Must be at least 1.' },
      { path: 'ratio', message: 'Must be greater than 0.' },
      { path: 'note', message: 'note: say it in three letters' },
    ]);
    expect(messages({ name: 'abcdef', code: 'abcd', tags: ['a', 'b', 'c'], count: 11, ratio: 1, note: 'a' })).toEqual([
      { path: 'name', message: 'Must have at most 5 characters.' },
      { path: 'tags', message: 'Must have at most 2 items.' },
      { path: 'count', message: 'Must be at most 10.' },
    ]);
  });

  it("reaches the client in the catalog and organization shapes (the gateway's schemas name their own)", async () => {
    const user = await createUser(h);
    const key = await h.http.post('/api/v1/api-keys').set(bearer(user.session)).send({});
    expect([key.status, key.body.detail]).toEqual([400, 'name: Required: expected string.']);

    const org = await h.http.post('/api/organizations').set(bearer(user.session)).send({});
    expect([org.status, org.body.error.message]).toEqual([400, 'name: Required: expected string.']);

    const blank = await h.http.post('/api/organizations').set(bearer(user.session)).send({ name: '   ' });
    expect([blank.status, blank.body.error.message]).toEqual([400, 'name: Must not be empty.']);
  });
});
