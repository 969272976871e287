import { fetch } from 'undici';
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';
import { waitUntil } from '../support/harness.js';

const TASKS = '/api/v3/contents/generations/tasks';
type Task = Record<string, unknown> & { id: string; status: string };

/** Walks an MP4's top-level boxes; throws unless their sizes add up exactly to the file length. */
function topLevelBoxes(bytes: Buffer): string[] {
  const boxes: string[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = bytes.readUInt32BE(at);
    if (size < 8 || at + size > bytes.length) throw new Error(`bad MP4 box at ${at}`);
    boxes.push(bytes.toString('latin1', at + 4, at + 8));
    at += size;
  }
  return boxes;
}

describe('simulated provider: Seedance (Ark) content generation tasks over HTTP', () => {
  let sim: SimulatedProvider;
  const call = async (method: string, url: string, body?: unknown, key = 'ark-key') => {
    const res = await fetch(`${sim.url}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const create = async (text: string, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', TASKS, {
      model: 'doubao-seedance-1-0-pro',
      content: [{ type: 'text', text }],
      ...extra,
    });
    expect(res.status).toBe(200);
    return String(res.body.id);
  };
  const get = async (id: string) => (await call('GET', `${TASKS}/${id}`)).body as Task;
  const settle = (id: string) =>
    waitUntil(
      async () => {
        const task = await get(id);
        return ['succeeded', 'failed', 'cancelled'].includes(task.status) ? task : undefined;
      },
      5000,
      40,
    );

  beforeAll(async () => {
    sim = await startSimulatedProvider({ videoDurationMs: 1000 });
  });
  afterAll(() => sim.close());

  it('goes queued → running → succeeded and serves a valid MP4 at content.video_url', async () => {
    const create = await call('POST', TASKS, {
      model: 'doubao-seedance-1-0-lite-i2v',
      content: [
        { type: 'text', text: 'A red kite over hills --ratio 9:16 --dur 4' },
        { type: 'image_url', image_url: { url: 'https://example.com/one.png' }, role: 'reference_image' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' }, role: 'reference_image' },
      ],
      resolution: '480p',
    });
    expect(create.status).toBe(200);
    expect(Object.keys(create.body)).toEqual(['id']);
    const id = String(create.body.id);
    expect(id).toMatch(/^cgt-\d{14}-[0-9a-z]+$/);

    const statuses: string[] = [];
    const done = await waitUntil(
      async () => {
        const task = await get(id);
        if (statuses.at(-1) !== task.status) statuses.push(task.status);
        return task.status === 'succeeded' ? task : undefined;
      },
      5000,
      20,
    );
    // Polling may miss the brief queued phase on a loaded machine; what it sees must still be in order.
    const order = ['queued', 'running', 'succeeded'];
    expect(statuses.at(-1)).toBe('succeeded');
    expect(statuses).toContain('running');
    expect(statuses.map((s) => order.indexOf(s))).toEqual([...statuses.map((s) => order.indexOf(s))].sort());
    expect(done).toMatchObject({
      id,
      model: 'doubao-seedance-1-0-lite-i2v',
      error: null,
      ratio: '9:16',
      duration: 4,
      resolution: '480p',
      framespersecond: 24,
      usage: {
        completion_tokens: Math.floor((480 * 853 * 24 * 4) / 1024),
        total_tokens: Math.floor((480 * 853 * 24 * 4) / 1024),
      },
    });
    expect(done.updated_at as number).toBeGreaterThanOrEqual(done.created_at as number);

    const videoUrl = (done.content as { video_url: string }).video_url;
    expect(videoUrl).toBe(`${sim.url}/files/videos/${id}.mp4`);
    const video = await fetch(videoUrl);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await video.arrayBuffer());
    expect(Number(video.headers.get('content-length'))).toBe(bytes.length);
    expect(topLevelBoxes(bytes)).toEqual(expect.arrayContaining(['ftyp', 'moov', 'mdat']));
    expect(bytes.includes(Buffer.from('avc1'))).toBe(true);
  });

  it('takes parameters from top-level fields over text flags', async () => {
    const id = await create('Waves --ratio 1:1 --duration 8 --resolution 1080p', { ratio: '4:3', seed: 7 });
    expect(await get(id)).toMatchObject({ ratio: '4:3', duration: 8, resolution: '1080p', seed: 7 });
  });

  it('always fails a [fail] task, with an error code and message', async () => {
    const failed = await settle(await create('Doomed [fail]'));
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: expect.any(String), message: expect.stringContaining('[fail]') },
    });
    expect(failed.content).toBeUndefined();
  });

  it('fails only the first [fail-once] task created with that prompt', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await create('A flaky sunrise [fail-once] --ratio 16:9'));
    const outcomes = await Promise.all(ids.map(async (id) => (await settle(id)).status));
    expect(outcomes).toEqual(['failed', 'succeeded', 'succeeded']);
  });

  it('cancels a queued or running task on DELETE and removes a finished one', async () => {
    const id = await create('Cancel me');
    expect(await call('DELETE', `${TASKS}/${id}`)).toEqual({ status: 200, body: {} });
    expect(await get(id)).toMatchObject({ status: 'cancelled', error: null });

    const finished = await create('Finish me');
    await settle(finished);
    await call('DELETE', `${TASKS}/${finished}`);
    expect((await call('GET', `${TASKS}/${finished}`)).status).toBe(404);
  });

  it('answers bad input, unknown tasks and missing keys in Ark error shape', async () => {
    const tooMany = await call('POST', TASKS, {
      model: 'm',
      content: [
        { type: 'text', text: 'x' },
        ...Array.from({ length: 10 }, () => ({ type: 'image_url', image_url: { url: 'https://example.com/i.png' } })),
      ],
    });
    expect(tooMany).toMatchObject({
      status: 400,
      body: { error: { code: 'InvalidParameter', param: 'content', type: 'BadRequest' } },
    });
    const badRatio = await call('POST', TASKS, { model: 'm', content: [{ type: 'text', text: 'x --ratio 5' }] });
    expect(badRatio).toMatchObject({ status: 400, body: { error: { param: 'ratio' } } });
    expect(await call('GET', `${TASKS}/cgt-missing`)).toMatchObject({
      status: 404,
      body: { error: { code: 'ResourceNotFound' } },
    });
    expect(await call('GET', `${TASKS}/cgt-missing`, undefined, '')).toMatchObject({
      status: 401,
      body: { error: { code: 'AuthenticationError' } },
    });
  });

  it('lists tasks newest first with a total', async () => {
    const id = await create('Listed');
    const list = await call('GET', `${TASKS}?page_num=1&page_size=2`);
    expect((list.body.items as Task[])[0]?.id).toBe(id);
    expect(list.body.total as number).toBeGreaterThan(2);
  });
});
