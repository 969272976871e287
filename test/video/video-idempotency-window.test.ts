// Idempotency-Key on POST /v1/videos holds for 24 hours (SPEC section 3): within them the same key and body answer the
// same task; past them the key is free again and makes a new task, whatever the body.
import { eq, sql } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { type GatewayWorld, openGatewayWorld } from '../support/gateway.js';
import { bearer } from '../support/identity.js';

let w: GatewayWorld;
beforeAll(async () => {
  w = await openGatewayWorld({ balance: '10' });
});
afterAll(async () => w?.close());

const aVideo = { model: 'seedance-1-0-pro', prompt: 'A lighthouse at dusk', duration: 5 };
const create = (key: string, body: object = aVideo) =>
  w.h.http.post('/v1/videos').set(bearer(w.key)).set('idempotency-key', key).send(body);

/** Moves a task's creation back in time, as if `hours` had passed since. */
const age = (id: string, hours: number) =>
  w.h.ctx.db
    .update(videoTasks)
    .set({ createdAt: sql`now() - make_interval(hours => ${hours})` })
    .where(eq(videoTasks.id, id));

describe('Idempotency-Key on POST /v1/videos', () => {
  it('answers the same task for the same key and body 23 hours later', async () => {
    const first = await create('window-23h');
    expect(first.status).toBe(200);
    await age(first.body.id, 23);
    const again = await create('window-23h');
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect((await create('window-23h', { ...aVideo, prompt: 'Another prompt' })).status).toBe(422);
  });

  it('makes a new task once 24 hours have passed, for the same body or another', async () => {
    const first = await create('window-25h');
    await age(first.body.id, 25);
    const later = await create('window-25h');
    expect(later.status).toBe(200);
    expect(later.body.id).not.toBe(first.body.id);
    expect(later.body.status).toBe('queued');

    const other = await create('window-25h-other');
    await age(other.body.id, 25);
    const changed = await create('window-25h-other', { ...aVideo, prompt: 'A different lighthouse' });
    expect(changed.status).toBe(200);
    expect(changed.body.id).not.toBe(other.body.id);
  });
});
