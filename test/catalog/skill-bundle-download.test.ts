// A published skill's version detail carries its bundle ({url, sha256, sizeBytes}); the URL serves the exact bytes
// uploaded, and a bundle of a version that is not published shows up in no public read.
import { createHash } from 'node:crypto';
import type { Response } from 'supertest';
import { type Actors, createActors, createDraft, decide, submit, uploadBundle } from '../support/catalog-factory.js';
import { createHarness, type Harness, startProcess, type WorkerProcess, waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { buildZip, skillMd } from '../support/zip-builders.js';

let h: Harness;
let a: Actors;
let worker: WorkerProcess;

beforeAll(async () => {
  h = await createHarness();
  a = await createActors(h);
  worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'skill-bundle' } });
});
afterAll(async () => {
  await worker.stop();
  await h.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const bundleZip = (note: string) =>
  buildZip({
    'SKILL.md': skillMd('pdf-tools'),
    'notes.md': `# ${note}\n`,
    'scripts/run.py': `print(${JSON.stringify(note)})\n`,
  });

type Bundle = { url: string; sha256: string; sizeBytes: number };
type DraftVersion = { id: string; status: string; bundle?: Bundle; bundleFiles?: unknown[] };

const ownDetail = async (id: string) =>
  (await h.http.get(`/api/v1/publisher/skill/${id}`).set(bearer(a.publisher.session)).expect(200)).body as {
    versions: DraftVersion[];
  };

/** Submits the skill and waits for the worker's parse (approval waits for it), then approves. */
async function submitAndApprove(id: string, versionId: string) {
  expect((await submit(h, a, 'skill', id)).status).toBe(200);
  await waitUntil(async () => (await ownDetail(id)).versions.find((v) => v.id === versionId)?.bundleFiles);
  expect((await decide(h, a, 'skill', id, 'approve')).status).toBe(200);
}

/** GET of a bundle URL through the API (the local driver's /files route), its body as bytes. */
const download = (url: string) =>
  h.http
    .get(new URL(url).pathname)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

/** Every public read of the skill (and the type's list and search), as text. */
async function publicTexts(slug: string): Promise<string[]> {
  const reads: Response[] = await Promise.all([
    h.http.get('/api/v1/skill'),
    h.http.get('/api/v1/skill').query({ search: slug }),
    h.http.get(`/api/v1/skill/${slug}`),
    h.http.get(`/api/v1/skill/${slug}/versions`),
    h.http.get(`/api/v1/skill/${slug}/versions/1.0.0`),
    h.http.get(`/api/v1/skill/${slug}/versions/2.0.0`),
  ]);
  return reads.map((res) => res.text);
}

describe("a published skill's bundle", () => {
  it('is in the version detail as {url, sha256, sizeBytes}, and the URL serves the exact bytes uploaded', async () => {
    const draft = await createDraft(h, a, 'skill');
    const zip = await bundleZip('first');
    expect((await uploadBundle(h, a, draft, zip)).status).toBe(200);
    await submitAndApprove(draft.id, draft.versionId);

    const item = await h.http.get(`/api/v1/skill/${draft.slug}`).expect(200);
    const bundle = item.body.currentVersion.bundle as Bundle;
    expect(bundle).toEqual({ url: expect.any(String), sha256: sha256(zip), sizeBytes: zip.length });
    expect(bundle.url.startsWith(`${h.config.publicBaseUrl}/files/skill-bundles/${draft.id}/${draft.versionId}/`)).toBe(
      true,
    );
    const version = await h.http.get(`/api/v1/skill/${draft.slug}/versions/1.0.0`).expect(200);
    expect(version.body.bundle).toEqual(bundle);
    const own = await ownDetail(draft.id);
    expect(own.versions.find((v) => v.id === draft.versionId)?.bundle).toEqual(bundle);

    const file = await download(bundle.url);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(sha256(file.body as Buffer)).toBe(bundle.sha256);
    expect((file.body as Buffer).equals(zip)).toBe(true);
  });

  it('of a version not yet published (a draft, or a new version in review) is shown to its publisher only', async () => {
    // Never published: the publisher sees the bundle, the public catalog does not know the item.
    const draft = await createDraft(h, a, 'skill');
    expect((await uploadBundle(h, a, draft, await bundleZip('draft only'))).status).toBe(200);
    const draftBundle = (await ownDetail(draft.id)).versions[0]?.bundle as Bundle;
    expect(draftBundle.url).toContain(draft.versionId);
    for (const text of await publicTexts(draft.slug)) {
      expect(text).not.toContain(draftBundle.url);
      expect(text).not.toContain(draftBundle.sha256);
    }
    expect(await download(draftBundle.url).then((res) => res.status)).toBe(200);

    // Published 1.0.0, then 2.0.0 with another bundle in review: public reads show 1.0.0's bundle only.
    const item = await createDraft(h, a, 'skill');
    const first = await bundleZip('one');
    expect((await uploadBundle(h, a, item, first)).status).toBe(200);
    await submitAndApprove(item.id, item.versionId);
    const next = await h.http
      .post(`/api/v1/publisher/skill/${item.id}/versions`)
      .set(bearer(a.publisher.session))
      .send({ version: '2.0.0' })
      .expect(200);
    const nextVersionId = next.body.versionId as string;
    const second = await bundleZip('two');
    expect((await uploadBundle(h, a, { id: item.id, versionId: nextVersionId }, second)).status).toBe(200);
    expect((await submit(h, a, 'skill', item.id)).status).toBe(200);

    const pending = (await ownDetail(item.id)).versions.find((v) => v.id === nextVersionId);
    expect(pending?.status).toBe('in_review');
    expect(pending?.bundle?.sha256).toBe(sha256(second));
    const moderated = await h.http.get(`/api/v1/moderation/skill/${item.id}`).set(bearer(a.moderator.session));
    expect(moderated.text).toContain(pending?.bundle?.url);

    const texts = await publicTexts(item.slug);
    expect(JSON.parse(texts[2] as string).currentVersion.bundle.sha256).toBe(sha256(first));
    for (const text of texts) {
      expect(text).not.toContain(pending?.bundle?.url);
      expect(text).not.toContain(nextVersionId);
      expect(text).not.toContain(sha256(second));
    }
  });
});
