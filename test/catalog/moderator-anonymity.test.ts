// Regression for finding #156 (round 20): the publisher's copy of its item named no moderator (`actorName` only for
// its own steps) but still gave each moderator step's `actorId`, the moderator's account id, and an organization's
// member list pairs account ids with names: a publisher who shares an organization with a moderator (either may
// create one and invite the other) read the moderator's name beside the decision. The publisher's copy now carries
// an actor's id only for the publisher's own steps, and every step says who acted by kind (`actedBy`).
import { type Actors, createActors, createDraft, decide, publishItem, submit } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { anInviteToken, anOrganization, inOrg } from '../support/org-fixtures.js';

let h: Harness;
let a: Actors;
beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
});
afterAll(() => h.close());

type Step = { action: string; actorId?: string; actorName?: string; actedBy?: string };

it("gives a publisher no moderator's account id, which its organization's member list would name", async () => {
  // The publisher's organization, which the moderator joined.
  const org = await anOrganization(h, a.publisher, 'Shared Co');
  const invite = await anInviteToken(h, org);
  const joined = await h.http
    .post(`/api/organization/invites/${invite.token}/accept`)
    .set(bearer(a.moderator.session))
    .send({});
  expect(joined.status).toBe(201);
  const members = await h.http.get('/api/organization/members').set(inOrg(a.publisher, org.id));
  expect(JSON.stringify(members.body)).toContain(a.moderator.accountId);

  const item = await publishItem(h, a, 'agent');
  const removed = await h.http
    .post(`/api/v1/moderation/agent/${item.id}/remove`)
    .set(bearer(a.moderator.session))
    .send({ reason: 'Misleading.' });
  expect(removed.status).toBe(200);
  const sentBack = await createDraft(h, a, 'soul');
  expect((await submit(h, a, 'soul', sentBack.id)).status).toBe(200);
  expect((await decide(h, a, 'soul', sentBack.id, 'request-changes', { comment: 'Say more.' })).status).toBe(200);

  for (const [type, id] of [
    ['agent', item.id],
    ['soul', sentBack.id],
  ] as const) {
    const mine = await h.http.get(`/api/v1/publisher/${type}/${id}`).set(bearer(a.publisher.session));
    expect(mine.status).toBe(200);
    expect(JSON.stringify(mine.body)).not.toContain(a.moderator.accountId);
    const steps = (mine.body.transitions as Step[]).map((t) => [t.action, t.actedBy, t.actorId, t.actorName]);
    const own = [a.publisher.accountId, 'Pat Publisher'];
    expect(steps).toEqual(
      type === 'agent'
        ? [
            ['create', 'publisher', ...own],
            ['submit', 'publisher', ...own],
            ['approve', 'moderator', undefined, undefined],
            ['remove', 'moderator', undefined, undefined],
          ]
        : [
            ['create', 'publisher', ...own],
            ['submit', 'publisher', ...own],
            ['request_changes', 'moderator', undefined, undefined],
          ],
    );
  }

  // The moderator's copy still names every actor, by id and name.
  const theirs = await h.http.get(`/api/v1/moderation/agent/${item.id}`).set(bearer(a.moderator.session));
  expect((theirs.body.transitions as Step[]).at(-1)).toMatchObject({
    action: 'remove',
    actedBy: 'moderator',
    actorId: a.moderator.accountId,
    actorName: 'Mo Moderator',
  });
});
