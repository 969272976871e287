import Anthropic from '@anthropic-ai/sdk';
import { fetch } from 'undici';
import { startProcess, type WorkerProcess } from '../support/harness.js';

describe('simulated provider as a separate process (what npm start runs)', () => {
  let proc: WorkerProcess;
  let url: string;

  beforeAll(async () => {
    proc = await startProcess(
      { SIMULATED_PROVIDER_PORT: '0', SIMULATED_VIDEO_MS: '300', SIMULATED_PROVIDER_API_KEY: 'sim-secret' },
      { script: 'scripts/simulated-provider/server.ts', readyLine: /listening on (http:\/\/\S+)/ },
    );
    url = proc.logs.join('').match(/simulated provider listening on (http:\/\/127\.0\.0\.1:\d+)\n/)![1]!;
  });
  afterAll(async () => {
    expect(await proc.stop('SIGTERM')).toBe(0);
  });

  it('prints exactly one ready line on stdout and serves on loopback', async () => {
    expect(proc.logs.join('').trim().split('\n')).toEqual([`simulated provider listening on ${url}`]);
    const health = await fetch(`${url}/health`);
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('accepts only the configured key when SIMULATED_PROVIDER_API_KEY is set', async () => {
    const wrong = new Anthropic({ baseURL: url, apiKey: 'other', maxRetries: 0 });
    expect(await wrong.models.list().catch((e: unknown) => e)).toBeInstanceOf(Anthropic.AuthenticationError);
    const right = new Anthropic({ baseURL: url, apiKey: 'sim-secret', maxRetries: 0 });
    const answer = await right.messages.create({
      model: 'any-model',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'ping' }],
    });
    expect(answer.model).toBe('any-model');
  });
});
