// One Publisher's uploads against everyone else's. Regression of a review finding: an API process inspects at most 2
// skill bundles at once with 8 more in line, first come, first served, so one Publisher uploading 10 bundles at once
// (or in a loop) kept the line full and another Publisher's upload answered 503 Skill.UploadBusy for as long as it
// lasted. The bundles live in S3 (a local S3-compatible server behind a loopback relay that holds the inspections'
// reads of the stored bundles until told, so the gate stays full for as long as the test needs).

import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { jest } from '@jest/globals';
import S3rver from 's3rver';
import type { Response } from 'supertest';
import type { S3Storage } from '../../shared/storage/s3-storage.js';
import { type Actors, createActors, createDraft } from '../support/catalog-factory.js';
import { createHarness, type Harness, waitUntil } from '../support/harness.js';
import { bearer } from '../support/identity.js';
import { buildZip, skillMd } from '../support/zip-builders.js';

jest.setTimeout(120_000);

const FLOOD = 10;

let s3: S3rver;
let dir: string;
let relay: http.Server;
let h: Harness;
/** Reads of stored bundles wait here while `holding`; `stored` counts bundles whose upload finished. */
const gate = { holding: true, held: [] as (() => void)[], stored: 0 };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ockhub-s3rver-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir });
  const { port } = await s3.run();
  // Forwards every request as it came (its Host too, which the signature covers).
  relay = http.createServer((req, res) => {
    const forward = () => {
      const upstream = http.request(
        { host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(res);
          if (req.method === 'PUT' && /\.meta\/skill-bundles\/.*\.json/.test(req.url ?? '')) {
            reply.on('end', () => gate.stored++);
          }
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (gate.holding && req.method === 'GET' && path.includes('/skill-bundles/') && path.endsWith('.zip')) {
      req.pause();
      gate.held.push(forward);
    } else forward();
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  h = await createHarness({
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    S3_BUCKET: 'ockhub-upload-share',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    SKILL_UPLOADS_PER_ACCOUNT: '2',
  });
  await (h.ctx.storage as S3Storage).client.send(new CreateBucketCommand({ Bucket: 'ockhub-upload-share' }));
});
afterAll(async () => {
  await h?.close();
  relay?.closeAllConnections();
  await new Promise((resolve) => relay?.close(resolve));
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const bundle = () => buildZip({ 'SKILL.md': skillMd('pdf-tools') });

async function upload(a: Actors, draft: { id: string; versionId: string }): Promise<Response> {
  return h.http
    .post(`/api/v1/publisher/skill/${draft.id}/versions/${draft.versionId}/package`)
    .set(bearer(a.publisher.session))
    .attach('file', await bundle(), { filename: 'bundle.zip', contentType: 'application/zip' });
}

it("inspects another Publisher's upload while one Publisher floods the inspection gate", async () => {
  const attacker = await createActors(h);
  const victim = await createActors(h);
  const attackerDraft = await createDraft(h, attacker, 'skill');
  const victimDraft = await createDraft(h, victim, 'skill');

  const answers: Response[] = [];
  const flood = Array.from({ length: FLOOD }, () =>
    upload(attacker, attackerDraft).then((res) => {
      answers.push(res);
      return res;
    }),
  );
  // Every one of the attacker's uploads is stored (and so in the gate or in its line), or was refused.
  await waitUntil(async () => gate.held.length === 2 && gate.stored + answers.length === FLOOD, 60_000);

  const theirs = upload(victim, victimDraft);
  // The victim's upload waits its turn behind the two inspections running; it is not refused.
  await waitUntil(async () => gate.stored + answers.length === FLOOD + 1, 30_000);
  gate.holding = false;
  for (const forward of gate.held.splice(0)) forward();

  const victimAnswer = await theirs;
  expect(victimAnswer.status).toBe(200);
  expect(victimAnswer.body.versionId).toBe(victimDraft.versionId);

  const all = await Promise.all(flood);
  expect(all.filter((r) => r.status === 200)).toHaveLength(2);
  const refused = all.filter((r) => r.status !== 200);
  expect(refused).toHaveLength(FLOOD - 2);
  for (const res of refused) {
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ title: 'Skill.TooManyUploads', status: 429 });
  }
});
