import { readFile } from 'node:fs/promises';
import OpenAI, { toFile } from 'openai';
import { type SimulatedProvider, startSimulatedProvider } from '../../scripts/simulated-provider/server.js';
import { waitUntil } from '../support/harness.js';

const sampleMp4 = new URL('../../scripts/simulated-provider/assets/sample.mp4', import.meta.url);
const pngBytes = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6360000000020001e221bc330000000049454e44ae426082',
  'hex',
);

describe('simulated provider: OpenAI videos through the real openai SDK v6', () => {
  let sim: SimulatedProvider;
  let client: OpenAI;

  beforeAll(async () => {
    // Long enough that a poller starved of CPU by other processes still sees the task in progress at least once.
    sim = await startSimulatedProvider({ videoDurationMs: 2500 });
    client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-sim', maxRetries: 0 });
  });
  afterAll(() => sim.close());

  it('creates a video from multipart with a reference file, reports progress, and serves the MP4 bytes', async () => {
    const created = await client.videos.create({
      model: 'sora-2',
      prompt: 'A lighthouse at dusk',
      seconds: '4',
      size: '1280x720',
      input_reference: await toFile(pngBytes, 'reference.png', { type: 'image/png' }),
    });
    expect(created).toMatchObject({
      object: 'video',
      model: 'sora-2',
      status: 'queued',
      progress: 0,
      seconds: '4',
      size: '1280x720',
    });
    expect(created.id).toMatch(/^video_/);
    expect(created.created_at).toBeGreaterThan(1_700_000_000);

    const [recorded] = sim.state.requests.filter((r) => r.path === '/v1/videos' && r.method === 'POST');
    expect(String(recorded?.headers['content-type'])).toMatch(/^multipart\/form-data/);
    expect(recorded?.body).toMatchObject({
      prompt: 'A lighthouse at dusk',
      input_reference: { filename: 'reference.png', contentType: 'image/png' },
    });

    const seen = new Set<string>();
    const done = await waitUntil(
      async () => {
        const video = await client.videos.retrieve(created.id);
        seen.add(`${video.status}:${video.progress > 0 && video.progress < 100 ? 'mid' : video.progress}`);
        return video.status === 'completed' ? video : undefined;
      },
      20_000,
      40,
    );
    expect(seen).toContain('in_progress:mid');
    expect(done).toMatchObject({ status: 'completed', progress: 100, error: null });
    expect(done.completed_at).toEqual(expect.any(Number));

    const content = await client.videos.downloadContent(created.id);
    expect(content.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await content.arrayBuffer());
    expect(Number(content.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.equals(await readFile(sampleMp4))).toBe(true);
    expect(bytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('accepts input_reference as an image URL object, as multipart fields or as JSON', async () => {
    const viaSdk = await client.videos.create({
      prompt: 'Multipart URL reference',
      input_reference: { image_url: 'https://example.com/ref.png' },
    });
    expect(viaSdk).toMatchObject({ status: 'queued', seconds: '4', size: '720x1280', model: 'sora-2' });
    const recorded = sim.state.requests.filter((r) => r.path === '/v1/videos' && r.method === 'POST').at(-1);
    expect(recorded?.body).toMatchObject({ input_reference: { image_url: 'https://example.com/ref.png' } });

    const res = await client.post<OpenAI.Videos.Video>('/videos', {
      body: {
        model: 'sora-2',
        prompt: 'JSON form',
        seconds: '8',
        input_reference: { image_url: 'https://example.com/ref.png' },
      },
    });
    expect(res).toMatchObject({ object: 'video', status: 'queued', seconds: '8', size: '720x1280' });
  });

  it('fails a [fail] prompt with an error object, and 404s its content', async () => {
    const created = await client.videos.create({ prompt: 'Broken [fail]', seconds: '4' });
    const failed = await waitUntil(
      async () => {
        const video = await client.videos.retrieve(created.id);
        return video.status === 'failed' ? video : undefined;
      },
      20_000,
      50,
    );
    expect(failed.error).toMatchObject({ code: expect.any(String), message: expect.stringContaining('[fail]') });
    const error = await client.videos.downloadContent(created.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('fails only the first [fail-once] task of a prompt', async () => {
    const first = await client.videos.create({ prompt: 'Flaky scene [fail-once]' });
    const second = await client.videos.create({ prompt: 'Flaky scene [fail-once]' });
    const finalStatus = (id: string) =>
      waitUntil(
        async () => {
          const video = await client.videos.retrieve(id);
          return ['completed', 'failed'].includes(video.status) ? video.status : undefined;
        },
        20_000,
        50,
      );
    expect(await finalStatus(first.id)).toBe('failed');
    expect(await finalStatus(second.id)).toBe('completed');
  });

  it('lists videos newest first and deletes one', async () => {
    const created = await client.videos.create({ prompt: 'To be deleted' });
    const page = await client.videos.list({ limit: 2 });
    expect(page.data[0]?.id).toBe(created.id);
    expect(await client.videos.delete(created.id)).toEqual({ id: created.id, object: 'video.deleted', deleted: true });
    expect(await client.videos.retrieve(created.id).catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('rejects a missing prompt and a missing key in the OpenAI error shape', async () => {
    const noPrompt = await client.post('/videos', { body: { model: 'sora-2' } }).catch((e: unknown) => e);
    expect(noPrompt).toBeInstanceOf(OpenAI.BadRequestError);
    expect((noPrompt as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'prompt',
    });
    const anonymous = new OpenAI({
      baseURL: `${sim.url}/v1`,
      apiKey: 'x',
      maxRetries: 0,
      defaultHeaders: { authorization: null },
    });
    expect(await anonymous.videos.retrieve('video_x').catch((e: unknown) => e)).toBeInstanceOf(
      OpenAI.AuthenticationError,
    );
  });
});
