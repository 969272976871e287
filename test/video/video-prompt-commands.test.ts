// Seedance parameter commands in a video prompt (`--dur 12`, `--rs 1080p`, …): Seedance reads them from the prompt
// and lets them win over the request's fields, so a task charged for 5 s could be made at 12 s, or at a resolution
// the registry does not offer. Refused at create with the route's 400 while the video upstream is Seedance, and again
// by the Seedance adapter at submit (review of 2026-11-27, second round; docs/video.md).
import { eq } from 'drizzle-orm';
import { videoTasks } from '../../shared/db/schema/index.js';
import { loadModelRegistry } from '../../shared/gateway/model-registry.js';
import { UpstreamVideoError } from '../../shared/providers/video/index.js';
import { seedanceVideoProvider } from '../../shared/providers/video/seedance-tasks.js';
import { normalizeVideoRequest, seedancePromptCommand } from '../../shared/video/video-request.js';
import { aProjectWithKey, type GatewayWorld, openGatewayWorld, walletOf } from '../support/gateway.js';

const commands: [string, string][] = [
  ['A field of tulips --dur 12', '--dur'],
  ['--rs 1080p a field of tulips', '--rs'],
  ['tulips\n--resolution 1080p', '--resolution'],
  ['tulips --duration 12', '--duration'],
  ['tulips --frames 289', '--frames'],
  ['tulips --wm false', '--wm'],
  ['tulips --watermark false', '--watermark'],
  ['tulips --seed 1', '--seed'],
  ['tulips --ratio 16:9', '--ratio'],
  ['tulips --rt 21:9', '--rt'],
  ['tulips --fps 24', '--fps'],
  ['tulips --framespersecond 24', '--framespersecond'],
  ['tulips --cf true', '--cf'],
  ['tulips --camerafixed true', '--camerafixed'],
  ['tulips\t--DUR\t12', '--DUR'],
  ['tulips --dur  \n 12', '--dur'],
  // Nothing but the text before the command (review of the fix): Seedance is read mostly in Chinese.
  ['tulips--dur 12', '--dur'],
  ['一只猫打哈欠--dur 12', '--dur'],
  ['tulips,--dur 12', '--dur'],
  ['tulips.--rs 1080p', '--rs'],
  ['(--dur 12)', '--dur'],
  ['"--dur 12"', '--dur'],
  ['tulips\u200b--dur 12', '--dur'],
];

const ordinary = [
  'a -- b',
  'pre--fix',
  'a field of tulips --durable and bright',
  'tulips --rsvp now',
  'tulips --seed',
  'tulips --dur   ',
  '-- dur 12',
  'tulips —dur 12',
  'tulips --',
];

describe('seedancePromptCommand', () => {
  it.each(commands)('finds the command in %j', (prompt, command) => {
    expect(seedancePromptCommand(prompt)).toBe(command);
  });

  it.each(ordinary.map((p) => [p]))('leaves %j as ordinary text', (prompt) => {
    expect(seedancePromptCommand(prompt)).toBeUndefined();
  });
});

describe('normalizeVideoRequest', () => {
  const registry = loadModelRegistry();
  const seedance = registry.resolve('seedance-1-0-pro', 'video');
  const sora = registry.resolve('sora-2', 'video');

  it('refuses a command in the prompt or a text item for Seedance and when the kind is not given', () => {
    const body = { model: seedance.id, prompt: 'Tulips', content: [{ type: 'text' as const, text: '--dur 12' }] };
    for (const options of [{ providerKind: 'seedance' as const }, {}]) {
      expect(() => normalizeVideoRequest(body, seedance, options)).toThrow(
        expect.objectContaining({ code: 'Video.InvalidRequest', status: 400 }),
      );
    }
  });

  it('takes such a prompt for an OpenAI-style upstream, which reads no commands', () => {
    const normalized = normalizeVideoRequest({ model: sora.id, prompt: 'Tulips --dur 12' }, sora, {
      providerKind: 'openai',
    });
    expect(normalized.request.prompt).toBe('Tulips --dur 12');
  });
});

describe('POST /v1/videos with a prompt command', () => {
  let w: GatewayWorld;
  let openai: GatewayWorld;
  beforeAll(async () => {
    w = await openGatewayWorld({ balance: '10' });
    openai = await openGatewayWorld({ balance: '10', env: { UPSTREAM_VIDEO_KIND: 'openai' } });
  });
  afterAll(async () => {
    await w?.close();
    await openai?.close();
  });

  it('answers 400 invalid_request_error to a Seedance upstream, before any task or charge', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const res = await w.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .send({ model: 'seedance-1-0-pro', prompt: 'A field of tulips --dur 12 --rs 1080p', duration: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', message: expect.stringContaining('--dur') });
    expect(await w.h.ctx.db.select().from(videoTasks).where(eq(videoTasks.projectId, p.projectId))).toEqual([]);
    expect(await walletOf(w.h, p.org)).toMatchObject({ balance: 10, frozenAmount: 0 });
  });

  it('creates the task for ordinary text with dashes', async () => {
    const p = await aProjectWithKey(w.h, '10');
    const res = await w.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .send({ model: 'seedance-1-0-pro', prompt: 'a -- b, a pre--fix and a --durable kite', duration: 5 });
    expect(res.status).toBe(200);
  });

  it('creates the task to an OpenAI-style upstream, which reads no commands', async () => {
    const p = await aProjectWithKey(openai.h, '10');
    const res = await openai.h.http
      .post('/v1/videos')
      .set('authorization', `Bearer ${p.key}`)
      .send({ model: 'sora-2', prompt: 'A field of tulips --dur 12', seconds: '4' });
    expect(res.status).toBe(200);
  });

  it('the Seedance adapter refuses such a prompt at submit (a task created under another kind), asking nothing', async () => {
    const before = w.sim.state.requests.length;
    const submit = seedanceVideoProvider(w.h.config).submit({
      upstreamModel: 'doubao-seedance-1-0-pro-250528',
      prompt: 'Tulips --dur 12',
      seconds: 5,
      images: [],
    });
    await expect(submit).rejects.toBeInstanceOf(UpstreamVideoError);
    await expect(submit).rejects.toMatchObject({ status: 400, permanent: true });
    expect(w.sim.state.requests.length).toBe(before);
  });
});
