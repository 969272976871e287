import { createSession } from '../../shared/identity/sessions.js';
import { createHarness, type Harness, startProcess, waitUntil } from '../support/harness.js';
import { bearer, createUser } from '../support/identity.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

it('refuses a console session after its 12 hours, and the maintenance worker deletes it a day later', async () => {
  const user = await createUser(h);
  const old = await createSession(h.ctx, user.accountId, new Date(Date.now() - 13 * 3_600_000));
  const stale = await createSession(h.ctx, user.accountId, new Date(Date.now() - 40 * 3_600_000));
  expect((await h.http.get('/api/v1/auth/me').set(bearer(old.accessToken))).status).toBe(401);

  const worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'maintenance' } });
  try {
    const job = await h.ctx.queues.add('maintenance', 'expire-credentials', {});
    const result = await waitUntil(async () =>
      (await job.getState()) === 'completed'
        ? (await h.ctx.queues.queue('maintenance').getJob(job.id as string))?.returnvalue
        : undefined,
    );
    expect(result).toEqual({ deletedSessions: 1 });
  } finally {
    await worker.stop();
  }
  expect((await h.http.get('/api/v1/auth/me').set(bearer(stale.accessToken))).status).toBe(401);
  expect((await h.http.get('/api/v1/auth/me').set(bearer(user.session))).status).toBe(200);
});
