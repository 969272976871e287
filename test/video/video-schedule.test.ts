// The poll interval of a video task (SPEC section 3: every 3–5 s, jittered).
import { jitteredInterval } from '../../shared/video/video-schedule.js';

describe('the video poll interval', () => {
  it('stays within 3–5 s around the default 4 s, at either end of the jitter', () => {
    for (const random of [() => 0, () => 0.5, () => 0.999_999]) {
      const ms = jitteredInterval(4000, random);
      expect(ms).toBeGreaterThanOrEqual(3000);
      expect(ms).toBeLessThanOrEqual(5000);
    }
  });

  it('spreads the polls of many tasks over the window instead of lockstep', () => {
    const intervals = new Set(Array.from({ length: 200 }, () => jitteredInterval(4000)));
    expect(intervals.size).toBeGreaterThan(50);
  });
});
