// A field a request leaves out is answered "Required" (with what was expected), in its route family's shape, not
// zod's "Invalid input: expected string, received undefined"; a field sent with the wrong value keeps zod's words.
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

  it("reaches the client in the catalog and organization shapes (the gateway's schemas name their own)", async () => {
    const user = await createUser(h);
    const key = await h.http.post('/api/v1/api-keys').set(bearer(user.session)).send({});
    expect([key.status, key.body.detail]).toEqual([400, 'name: Required: expected string.']);

    const org = await h.http.post('/api/organizations').set(bearer(user.session)).send({});
    expect([org.status, org.body.error.message]).toEqual([400, 'name: Required: expected string.']);
  });
});
