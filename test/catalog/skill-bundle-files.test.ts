// A skill version's reviewers read its bundle's files as text without downloading the zip: moderators any skill's,
// the publisher its own; another publisher gets the same 404 as an unknown id.
import { type Actors, createActors, createDraft, submit, uploadBundle } from '../support/catalog-factory.js';
import { createHarness, type Harness } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { buildZip, skillMd } from '../support/zip-builders.js';

let h: Harness;
let a: Actors;
let other: Actors;

beforeAll(async () => {
  h = await createHarness();
  [a, other] = await Promise.all([createActors(h), createActors(h)]);
});
afterAll(async () => {
  await h.close();
});

/** The problem+json answer's code. */
const codeOf = (res: { text: string }) => JSON.parse(res.text).title as string;

const script = 'echo "fetches $1"\n';

async function skillInReview() {
  const draft = await createDraft(h, a, 'skill');
  const zip = await buildZip({ 'pdf-tools/SKILL.md': skillMd(), 'pdf-tools/scripts/fetch.sh': script });
  expect((await uploadBundle(h, a, draft, zip)).status).toBe(200);
  expect((await submit(h, a, 'skill', draft.id)).status).toBe(200);
  return draft;
}

const asModerator = (path: string) => h.http.get(`/api/v1/moderation/skill/${path}`).set(bearer(a.moderator.session));
const asOwner = (path: string, who = a) =>
  h.http.get(`/api/v1/publisher/skill/${path}`).set(bearer(who.publisher.session));

describe("reading a skill version's bundle files", () => {
  it("answers a moderator and the owner SKILL.md's exact text, as JSON nobody caches", async () => {
    const draft = await skillInReview();
    const at = `${draft.id}/versions/${draft.versionId}/files/SKILL.md`;
    for (const res of [await asModerator(at), await asOwner(at)]) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.body).toEqual({
        path: 'SKILL.md',
        size: Buffer.byteLength(skillMd()),
        binary: false,
        text: skillMd(),
        truncated: false,
      });
    }
    const nested = await asModerator(`${draft.id}/versions/${draft.versionId}/files/scripts/fetch.sh`).expect(200);
    expect(nested.body).toMatchObject({ path: 'scripts/fetch.sh', text: script });
  });

  it('is 404 for another publisher, an unknown file, a version of another skill or without a bundle', async () => {
    const draft = await skillInReview();
    const file = `${draft.id}/versions/${draft.versionId}/files/SKILL.md`;
    const foreign = await asOwner(file, other);
    expect([foreign.status, codeOf(foreign)]).toEqual([404, 'Skill.NotFound']);
    // Not a Publisher at all: the role check of the route family.
    expect((await h.http.get(`/api/v1/publisher/skill/${file}`).set(bearer(a.outsider.session))).status).toBe(403);
    // A publisher is not a moderator.
    expect((await h.http.get(`/api/v1/moderation/skill/${file}`).set(bearer(a.publisher.session))).status).toBe(403);

    for (const path of ['missing.md', 'pdf-tools/SKILL.md', '..%2FSKILL.md', 'scripts']) {
      const res = await asModerator(`${draft.id}/versions/${draft.versionId}/files/${path}`);
      expect([path, res.status, codeOf(res)]).toEqual([path, 404, 'Skill.FileNotFound']);
    }
    const another = await createDraft(h, a, 'skill');
    const crossed = await asModerator(`${another.id}/versions/${draft.versionId}/files/SKILL.md`);
    expect([crossed.status, codeOf(crossed)]).toEqual([404, 'Version.NotFound']);
    const bare = await asOwner(`${another.id}/versions/${another.versionId}/files/SKILL.md`);
    expect([bare.status, codeOf(bare)]).toEqual([404, 'Skill.FileNotFound']);
    const malformed = await asModerator(`not-a-uuid/versions/${draft.versionId}/files/SKILL.md`);
    expect([malformed.status, codeOf(malformed)]).toEqual([404, 'Skill.NotFound']);
  });
});
