// What a person sees in a terminal: LOG_FORMAT=pretty (what `npm start` sets on a terminal) prints readable lines,
// and a scheduler tick that found nothing to do (the telemetry flush, every second) says so only at debug level.
import { didNothing } from '../../workers/runtime.js';
import { createHarness, type Harness, startProcess, waitUntil } from '../support/harness.js';

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

describe('the worker in a terminal', () => {
  it('prints readable lines, not JSON, with LOG_FORMAT=pretty', async () => {
    const worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'quota', LOG_FORMAT: 'pretty' } });
    try {
      const lines = worker.logs.join('').split('\n').filter(Boolean);
      const ready = lines.find((line) => line.includes('worker ready'));
      expect(ready).toMatch(/\d\d:\d\d:\d\d\.\d{3}.*INFO.*worker ready/);
      expect(lines.filter((line) => line.trimStart().startsWith('{'))).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it('logs an empty telemetry flush tick at debug, never at info', async () => {
    const worker = await startProcess(h.env, { extraEnv: { WORKER_QUEUES: 'telemetry', LOG_LEVEL: 'debug' } });
    try {
      const doneLines = () =>
        worker.logs
          .join('')
          .split('\n')
          .filter((line) => line.includes('"job":"flush"') && line.includes('"msg":"job done"'));
      // Two ticks seen (the scheduler runs one every second), so the level of an empty tick is known.
      await waitUntil(async () => doneLines().length >= 2, 20_000);
      const levels = new Set(doneLines().map((line) => (JSON.parse(line) as { level: number }).level));
      expect(levels).toEqual(new Set([20]));
    } finally {
      await worker.stop();
    }
  });
});

describe('didNothing', () => {
  it('is true for no result and for counts that are all zero or empty, false once anything was done', () => {
    expect(didNothing(undefined)).toBe(true);
    expect(didNothing({ deletedSessions: 0 })).toBe(true);
    expect(didNothing({ flushed: 0, items: [] })).toBe(true);
    expect(didNothing({ deletedSessions: 2 })).toBe(false);
    expect(didNothing({ repo: 'acme/widgets', stars: 4 })).toBe(false);
    expect(didNothing(3)).toBe(false);
  });
});
