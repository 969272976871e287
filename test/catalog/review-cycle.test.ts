import { Queue } from 'bullmq';
import {
  type Actors,
  attachBundle,
  createActors,
  createDraft,
  decide,
  publishItem,
  submit,
} from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer, type TestUser } from '../support/identity.js';

let h: Harness;
let a: Actors;

const problem = (res: { text: string }) => JSON.parse(res.text);
const as = (user: TestUser) => bearer(user.session);

const detail = async (type: string, id: string) =>
  (await h.http.get(`/api/v1/publisher/${type}/${id}`).set(as(a.publisher))).body;

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
});
afterAll(async () => h.close());

describe('submit-review and withdraw', () => {
  it('moves draft → in_review → draft, recording each transition with the comment', async () => {
    const draft = await createDraft(h, a, 'mcp');
    const submitted = await submit(h, a, 'mcp', draft.id, 'Please look at the tools.');
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: 'in_review', version: '1.0.0' });
    const withdrawn = await h.http.post(`/api/v1/publisher/mcp/${draft.id}/withdraw`).set(as(a.publisher));
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.status).toBe('draft');
    const full = await detail('mcp', draft.id);
    expect(full.status).toBe('draft');
    expect(full.versions[0].status).toBe('draft');
    expect(full.transitions.slice(1)).toMatchObject([
      { action: 'submit', from: 'draft', to: 'in_review', comment: 'Please look at the tools.' },
      { action: 'withdraw', from: 'in_review', to: 'draft', actorId: a.publisher.accountId },
    ]);
  });

  it('refuses edits while in review with 400 Mcp.NotEditable', async () => {
    const draft = await createDraft(h, a, 'mcp');
    await submit(h, a, 'mcp', draft.id).expect(200);
    const edit = await h.http.put(`/api/v1/publisher/mcp/${draft.id}/draft`).set(as(a.publisher)).send({ name: 'X' });
    expect(edit.status).toBe(400);
    expect(problem(edit).title).toBe('Mcp.NotEditable');
    const version = await h.http
      .post(`/api/v1/publisher/mcp/${draft.id}/versions`)
      .set(as(a.publisher))
      .send({ version: '2.0.0' });
    expect(version.status).toBe(400);
    expect(problem(version).title).toBe('Mcp.NotEditable');
    const again = await submit(h, a, 'mcp', draft.id);
    expect(again.status).toBe(409);
    expect(problem(again).title).toBe('Mcp.AlreadyInReview');
  });

  it('refuses metadata edits of a published item with 400 Agent.NotEditable', async () => {
    const item = await publishItem(h, a, 'agent');
    const res = await h.http.put(`/api/v1/publisher/agent/${item.id}/draft`).set(as(a.publisher)).send({ name: 'X' });
    expect(res.status).toBe(400);
    expect(problem(res).title).toBe('Agent.NotEditable');
    const nothing = await submit(h, a, 'agent', item.id);
    expect(nothing.status).toBe(409);
    expect(problem(nothing).title).toBe('Agent.NothingToSubmit');
  });

  it('answers 409 <Type>.NotInReview when withdrawing outside in_review', async () => {
    const draft = await createDraft(h, a, 'soul');
    const res = await h.http.post(`/api/v1/publisher/soul/${draft.id}/withdraw`).set(as(a.publisher));
    expect(res.status).toBe(409);
    expect(problem(res).title).toBe('Soul.NotInReview');
    const published = await publishItem(h, a, 'soul');
    const again = await h.http.post(`/api/v1/publisher/soul/${published.id}/withdraw`).set(as(a.publisher));
    expect(problem(again).title).toBe('Soul.NotInReview');
  });

  it('answers 400 Skill.InvalidBundle when a skill version has no uploaded bundle', async () => {
    const draft = await createDraft(h, a, 'skill');
    const res = await submit(h, a, 'skill', draft.id);
    expect(res.status).toBe(400);
    expect(problem(res).title).toBe('Skill.InvalidBundle');
    expect((await detail('skill', draft.id)).status).toBe('draft');
  });

  it('enqueues the skill-bundle parse of the submitted version', async () => {
    const draft = await createDraft(h, a, 'skill');
    await attachBundle(h, draft.versionId);
    await submit(h, a, 'skill', draft.id).expect(200);
    const queue = new Queue('skill-bundle', { connection: h.ctx.redis, prefix: h.config.REDIS_PREFIX });
    try {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active']);
      expect(jobs.map((j) => [j.name, j.data.itemId, j.data.versionId])).toContainEqual([
        'parse',
        draft.id,
        draft.versionId,
      ]);
    } finally {
      await queue.close();
    }
  });

  it('lets the publisher resubmit after changes were requested', async () => {
    const draft = await createDraft(h, a, 'agent');
    await submit(h, a, 'agent', draft.id).expect(200);
    await decide(h, a, 'agent', draft.id, 'request-changes', { comment: 'Add a license.' }).expect(200);
    await h.http
      .put(`/api/v1/publisher/agent/${draft.id}/draft`)
      .set(as(a.publisher))
      .send({ version: { license: 'Apache-2.0' } })
      .expect(200);
    const res = await submit(h, a, 'agent', draft.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'in_review', version: '1.0.0' });
  });
});
