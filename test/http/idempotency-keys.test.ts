// Idempotency-Key binds the request it first came with, on every route that takes the header (video create and
// the platform Admin's recharge): another body with the key → 422, the key while its first request is still being
// handled → 409, a repeat afterwards → the first answer, the effect once.
import { eq } from 'drizzle-orm';
import pg from 'pg';
import type { Response } from 'supertest';
import { videoTasks, walletRecords } from '../../shared/db/schema/index.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld, walletOf } from '../support/gateway.js';
import { waitUntil } from '../support/harness.js';
import { platformAdminOf } from '../support/identity.js';
import { inOrg } from '../support/org-fixtures.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld();
});
/** Video tasks this file made: no worker runs here, so they are cancelled at the end rather than left open for the
 * video sweep of a later file that shares this jest worker's database. */
const openVideos = new Map<string, string>();
const keepVideo = (key: string, res: Response) => {
  if (res.status === 200 && typeof res.body?.id === 'string') openVideos.set(res.body.id, key);
  return res;
};
afterAll(async () => {
  for (const [id, key] of openVideos)
    await w.h.http.post(`/v1/videos/${id}/cancel`).set({ authorization: `Bearer ${key}` });
  await w.close();
});

/** Holds the wallet row's lock in an open transaction: a recharge or a reservation of this wallet waits for it. */
/** Holds a lock the route's first write waits on, in a transaction of its own, until released. */
async function holdLock(sql: string, params: unknown[] = []): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: w.h.config.DATABASE_URL });
  await client.connect();
  await client.query('begin');
  await client.query(sql, params);
  return async () => {
    await client.query('rollback');
    await client.end();
  };
}

const claimsHeld = async () => (await w.h.ctx.redis.keys(`${w.h.config.REDIS_PREFIX}:idempotency:*`)).length;

type KeyedRoute = {
  name: string;
  /** A fresh organization and a sender of keyed requests to the route on its behalf. */
  open(): Promise<{ organizationId: string; send(body: object, key: string): Promise<Response> }>;
  first: object;
  /** The same request written differently (key order): the same request. */
  sameRewritten: object;
  other: object;
  /** What identifies the effect in the answer, and how many effects the key made. */
  idOf(res: Response): string;
  effects(organizationId: string): Promise<number>;
  errorCode(res: Response): string;
  /** Keeps the first request in flight (holding its claim) until released. */
  hold(organizationId: string): Promise<() => Promise<void>>;
};

const routes: KeyedRoute[] = [
  {
    name: 'POST /v1/videos',
    async open() {
      const p = await aProjectWithKey(w.h, '10');
      return {
        organizationId: p.org.id,
        send: async (body, key) =>
          keepVideo(
            p.key,
            await w.h.http
              .post('/v1/videos')
              .set({ authorization: `Bearer ${p.key}`, 'idempotency-key': key })
              .send(body),
          ),
      };
    },
    first: { model: 'seedance-1-0-pro', prompt: 'A lighthouse at dusk', duration: 5, ratio: '16:9' },
    sameRewritten: { ratio: '16:9', duration: 5, prompt: 'A lighthouse at dusk', model: 'seedance-1-0-pro' },
    other: { model: 'seedance-1-0-pro', prompt: 'A lighthouse at dawn', duration: 5, ratio: '16:9' },
    idOf: (res) => res.body.id,
    effects: async (organizationId) =>
      (await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.organizationId, organizationId))).length,
    errorCode: (res) => res.body.error.code,
    // Admission is a Redis step; the task row's insert is the first PostgreSQL write, and this lock blocks inserts.
    hold: () => holdLock('lock table video_tasks in share row exclusive mode'),
  },
  {
    name: 'POST /api/organization/wallet/recharge',
    async open() {
      const p = await aProjectWithKey(w.h);
      const admin = await platformAdminOf(w.h);
      return {
        organizationId: p.org.id,
        send: (body, key) =>
          w.h.http
            .post('/api/organization/wallet/recharge')
            .set({ ...inOrg(admin, p.org.id), 'idempotency-key': key })
            .send(body),
      };
    },
    first: { amount: 5, description: 'invoice 7' },
    sameRewritten: { description: 'invoice 7', amount: '5.000' },
    other: { amount: 50, description: 'invoice 7' },
    idOf: (res) => res.body.data.id,
    effects: async (organizationId) =>
      (await w.h.ctx.db.select().from(walletRecords).where(eq(walletRecords.organizationId, organizationId))).length,
    errorCode: (res) => res.body.error.code,
    hold: (organizationId) =>
      holdLock('select 1 from organization_wallets where organization_id = $1 for update', [organizationId]),
  },
];

describe.each(routes)('Idempotency-Key on $name', (route) => {
  it('answers 409 while the first request is in flight and 422 for another body, then the first answer', async () => {
    const { organizationId, send } = await route.open();
    const release = await route.hold(organizationId);
    let first: Promise<Response>;
    try {
      // supertest sends on then(): the first request starts now and waits for the held lock, holding its claim.
      first = send(route.first, 'k-inflight').then((res) => res);
      await waitUntil(async () => (await claimsHeld()) === 1);
      const inFlight = await send(route.first, 'k-inflight');
      expect(inFlight.status).toBe(409);
      expect(route.errorCode(inFlight)).toBe('Idempotency.RequestInFlight');
      const otherBody = await send(route.other, 'k-inflight');
      expect(otherBody.status).toBe(422);
      expect(route.errorCode(otherBody)).toBe('Idempotency.KeyReused');
    } finally {
      await release();
    }
    const done = await first;
    expect(done.status).toBeLessThan(300);
    const repeat = await send(route.sameRewritten, 'k-inflight');
    expect(repeat.status).toBe(200);
    expect(route.idOf(repeat)).toBe(route.idOf(done));
    const reused = await send(route.other, 'k-inflight');
    expect(reused.status).toBe(422);
    expect(route.errorCode(reused)).toBe('Idempotency.KeyReused');
    expect(reused.text).toMatch(/different request body/);
    expect(await route.effects(organizationId)).toBe(1);
    expect(await claimsHeld()).toBe(0);
  });

  it('refuses a key longer than 255 characters with 400 and makes nothing', async () => {
    const { organizationId, send } = await route.open();
    expect((await send(route.first, 'k'.repeat(256))).status).toBe(400);
    expect(await route.effects(organizationId)).toBe(0);
  });

  it('lets another key, or the same key in another organization, make a new effect', async () => {
    const a = await route.open();
    const b = await route.open();
    const one = await a.send(route.first, 'k-shared');
    const two = await a.send(route.other, 'k-other');
    const three = await b.send(route.other, 'k-shared');
    for (const res of [one, two, three]) expect(res.status).toBeLessThan(300);
    expect(new Set([one, two, three].map(route.idOf)).size).toBe(3);
    expect(await route.effects(a.organizationId)).toBe(2);
  });
});

it('takes no money for a video repeat refused with 422: the wallet holds one reservation', async () => {
  const p = await aProjectWithKey(w.h, '10');
  const send = async (prompt: string) =>
    keepVideo(
      p.key,
      await w.h.http
        .post('/v1/videos')
        .set({ authorization: `Bearer ${p.key}`, 'idempotency-key': 'k-money' })
        .send({ model: 'seedance-1-0-pro', prompt, duration: 5 }),
    );
  expect((await send('one')).status).toBe(200);
  expect((await send('two')).status).toBe(422);
  expect(await walletOf(w.h, p.org)).toMatchObject({ balance: 9.75, frozenAmount: 0.25 });
});
